"""System tools the deploy tests run: they FAIL (not skip) under CI=true when missing, since .ci/run
installs them (apt-get install -y systemd shellcheck mosquitto)."""

from __future__ import annotations

import os
import shutil

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def need(tool: str, package: str) -> str:
    """The path of ``tool``; skip the test without it, or fail it under CI."""
    found = shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/sbin:/usr/bin")
    if found:
        return found
    message = f"{tool} is not installed (apt-get install -y {package})"
    if os.environ.get("CI") == "true":
        pytest.fail(message + ": CI must provide it")
    pytest.skip(message)


def load_configure():  # type: ignore[no-untyped-def]
    """deploy/configure.py as a module (it is a script the installer runs, not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("quizbox_configure", os.path.join(REPO, "deploy", "configure.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
