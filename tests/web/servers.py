"""Real server processes for the production tests: gunicorn with ``deploy/gunicorn.conf.py``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "gunicorn.conf.py"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """A running gunicorn: its address and the file its output (access log included) goes to."""

    base: str
    log: Path
    process: subprocess.Popen[bytes]

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def wait_until_ready(base: str, process: subprocess.Popen[bytes], log: Path, deadline: float) -> None:
    """Poll until the server answers (a 404 for an unknown game); fail with its output if it dies."""
    while True:
        try:
            if requests.get(f"{base}/api/games/{'0' * 16}/version", timeout=5).status_code == 404:
                return
        except requests.RequestException:
            pass  # still starting
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.05)


@contextmanager
def gunicorn(folder: Path, database_url: str, **env: str) -> Iterator[Server]:
    """gunicorn as ``make serve`` runs it (threaded workers, token-free access log) on a free port."""
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"gunicorn-{port}.log"
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")},
        "SCOREKEEPER_DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "production-test",
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
        "SCOREKEEPER_BIND": f"127.0.0.1:{port}",
        "SCOREKEEPER_WORKERS": "1",
        "SCOREKEEPER_THREADS": "4",
        **env,
    }
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", str(CONFIG)],
            cwd=ROOT,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_ready(base, process, log, time.monotonic() + 60)
        yield Server(base, log, process)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
