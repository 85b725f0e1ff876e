"""Start moto-local from tests and talk to it through boto3 (installed with moto).

Usage::

    from moto_harness import start_moto

    with start_moto() as moto:
        cognito = moto.client("cognito-idp")
        pool = cognito.create_user_pool(PoolName="app")["UserPool"]

``start_moto`` runs DevServers/Moto/moto-local on a free port, waits for its URL line and stops it on exit.
``reset()`` clears every service's state (moto's ``/moto-api/reset``), so one process can serve many tests.
"""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

MOTO_DIR = Path(__file__).resolve().parent
# The appsync-local harness: one way to start a test server and read its URL line (and, in zygote, to stop it).

from harness import launch  # noqa: E402
import zygote  # noqa: E402

MOTO_PATH = MOTO_DIR / "moto-local"
REGION = "us-east-1"
# moto accepts any credentials; these only let boto3 sign its calls.
TEST_ACCESS_KEY_ID = "testing"
TEST_SECRET_ACCESS_KEY = "testing"


@dataclass
class MotoHandle:
    """A running moto-local process: its ``url`` and a boto3 ``client`` for any service it serves."""
    url: str
    process: subprocess.Popen
    stderr_path: str

    def client(self, service: str, region: str = REGION) -> Any:
        import boto3
        return boto3.client(service, endpoint_url=self.url, region_name=region,
                            aws_access_key_id=TEST_ACCESS_KEY_ID, aws_secret_access_key=TEST_SECRET_ACCESS_KEY)

    def reset(self) -> None:
        """Forget every user pool, user, role and token (moto's documented reset endpoint)."""
        request = urllib.request.Request(f"{self.url}/moto-api/reset", method="POST", data=b"")
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=10) as response:
            response.read()

    def stderr_text(self) -> str:
        return Path(self.stderr_path).read_text(errors="replace")

    def stop(self) -> None:
        zygote.stop(self.process, grace=10)
        if self.process.stdout:
            self.process.stdout.close()
        Path(self.stderr_path).unlink(missing_ok=True)

    def __enter__(self) -> "MotoHandle":
        return self

    def __exit__(self, *_exc) -> None:
        self.stop()


def start_moto(args: Iterable[str] = (), timeout: float = 30) -> MotoHandle:
    """Start moto-local on a free port and wait until it prints its URL (it listens by then)."""
    return start_local_server(MOTO_PATH, args, timeout)


def start_local_server(script: Path, args: Iterable[str] = (), timeout: float = 30) -> MotoHandle:
    """Start a Python server script of Tests/ that takes ``--port 0`` and prints its URL on its first stdout
    line once it listens (moto-local, aws-endpoints-local); stopped by the handle."""
    return launch([sys.executable, str(script), "--port", "0", *args], script.name, timeout,
                  lambda process, stderr_path: MotoHandle("", process, stderr_path))
