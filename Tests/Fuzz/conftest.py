"""The fuzz suite reuses the end-to-end runner (gqlc_runner) and the hostile server next to it; ``workdir`` is
a scratch directory for the generated files of one test module."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="gqlc-fuzz-") as path:
        yield Path(path)
