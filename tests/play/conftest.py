"""Fixtures for the play tests: a plugin host with every game, small trained strategies, a
served web table on a free local port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gamesolve_kuhn.plugin
import gamesolve_leduc.plugin
import gamesolve_liars_dice.plugin
import gamesolve_nlth.plugin
from gamesolve.plugins import make_plugin_manager

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def play_host():
    """A strict host with the four game plugins registered directly."""
    plugins = [gamesolve_kuhn.plugin, gamesolve_leduc.plugin, gamesolve_nlth.plugin, gamesolve_liars_dice.plugin]
    return make_plugin_manager(strict=True, entry_points=False, plugins=plugins)


@pytest.fixture(scope="session")
def tiny_blueprint(shared_folder):
    """A six-player NLTH blueprint on the tiny preset: 3,000 MCCFR iterations (seconds, once
    the tiny card abstraction is in the cache; building that takes about a minute once)."""
    return shared_folder("play-tiny-blueprint")


@pytest.fixture(scope="session")
def kuhn_policy(shared_folder):
    return shared_folder("play-kuhn-policy")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A ``gamesolve serve`` subprocess on a free local port; its log is kept for checks."""

    def __init__(self, args, data: Path, log: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self._log = log.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gamesolve.cli", "serve", *args, "--port", str(self.port), "--data", str(data)],
            stdout=self._log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.time() + 120
        while True:
            assert self.proc.poll() is None, f"gamesolve serve exited: {self.log()}"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                assert time.time() < deadline, f"gamesolve serve did not start: {self.log()}"
                time.sleep(0.2)

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()


def assert_clean_log(text: str) -> None:
    """No traceback and no 5xx in a server's log."""
    assert "Traceback" not in text, text[-3000:]
    assert not [line for line in text.splitlines() if '" 5' in line and "HTTP/1.1" in line], text[-3000:]
