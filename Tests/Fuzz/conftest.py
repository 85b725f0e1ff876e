"""The fuzz suite reuses the end-to-end runner (gqlc_runner) and the hostile server next to it."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "EndToEnd"))
