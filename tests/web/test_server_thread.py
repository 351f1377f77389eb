"""The admin page's server thread (the demo and the browser tests run waitress in it) stops cleanly."""

from __future__ import annotations

import select
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from waitress import wasyncore  # type: ignore[import-untyped]

from appliance.infra.config import BoxConfig, Config
from appliance.infra.store import Store
from tests.web.fakes import ClientFactory, FakeLink
from web import ServerThread, create_app


class _LateSelect:
    """waitress's select module, but a select() that runs only once stop() has closed every socket: the
    moment a full test run once hit by chance (OSError EBADF in the waitress thread)."""

    def __init__(self) -> None:
        self.server: ServerThread | None = None
        self.stopping = False  # the test is calling stop()

    def select(self, r: Any, w: Any, e: Any, timeout: float | None = None) -> Any:
        server = self.server
        if server is not None and self.stopping:
            deadline = time.monotonic() + 2
            while server.server._map and time.monotonic() < deadline:
                time.sleep(0.001)
        return select.select(r, w, e, timeout)

    def __getattr__(self, name: str) -> Any:
        return getattr(select, name)


def test_stopping_the_server_thread_raises_nothing_in_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    late = _LateSelect()
    monkeypatch.setattr(wasyncore, "select", late)
    store = Store(tmp_path / "quizbox.db")
    failures: list[Any] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: failures.append(args.exc_value))
    try:
        config = Config(box=BoxConfig(id="stoptest", name="Stop test", data_dir=str(tmp_path / "data")))
        app = create_app({"QUIZBOX_CONFIG": config, "LINK": FakeLink(), "PHONE_FACTORY": ClientFactory(),
                          "STORE": store})
        server = ServerThread(app)
        late.server = server
        server.start()
        with urllib.request.urlopen(server.url + "/login", timeout=10) as reply:  # noqa: S310 (our server)
            assert reply.status == 200
        late.stopping = True
        server.stop()
        assert not server._thread.is_alive()
    finally:
        store.close()
    assert failures == []
