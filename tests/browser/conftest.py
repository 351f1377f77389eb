"""A real box for the browser tests: mosquitto, hub, session and store, and the admin app under waitress.

Browser tests drive Debian's chromium (``apt-get install chromium``) through Playwright; they FAIL, not
skip, when CI=true and chromium or Playwright is missing. ``playwright install`` is never used.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from appliance.broker import MosquittoBroker
from appliance.config import BoxConfig, BrokerConfig, Config
from appliance.hub import Hub
from appliance.session.flow import Card
from appliance.session.session import Session
from appliance.store import Store
from tests.browser import winners_game  # noqa: F401  (registers the test game)
from tests.conftest import connection_of
from web import ServerThread, create_app
from web.services import KEY, Services

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web-screens"


def _need(what: str, ok: bool) -> None:
    if not ok:
        message = f"{what} is missing"
        if os.environ.get("CI") == "true":
            pytest.fail(message + ": CI must provide it (apt-get install chromium; pip install playwright)")
        pytest.skip(message)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _need(CHROMIUM, Path(CHROMIUM).exists() or shutil.which("chromium") is not None)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("the playwright Python package", False)
        raise
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


@dataclass
class Box:
    url: str
    store: Store
    hub: Hub
    services: Services

    def shot(self, page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"web-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path


def store_cards(store: Store) -> Any:
    """The hub's deck provider: the cards of the deck the start command names, from the shared store."""

    def cards(game: str, command: Mapping[str, Any]) -> Sequence[Card]:
        data = store.deck(str(command.get("deck")))
        if data is None:
            raise ValueError(f"no deck {command.get('deck')!r}")
        return [Card(str(c["id"]), c) for c in data["cards"]]

    return cards


@pytest.fixture
def box(mosquitto: MosquittoBroker, box_id: str, tmp_path: Path) -> Iterator[Box]:
    conn = connection_of(mosquitto)
    store = Store(tmp_path / "data" / "quizbox.db")
    config = Config(box=BoxConfig(id=box_id, name="Quizbox test", data_dir=str(tmp_path / "data")),
                    broker=BrokerConfig(host=conn.host, port=conn.port))
    hub = Hub(box_id, Session(time.monotonic, box_name="Quizbox test", store=store), conn, decks=store_cards(store))
    hub.start()
    app = create_app({"QUIZBOX_CONFIG": config, "STORE": store, "EXTRA_GAMES": {"winners": "estimation"},
                      "PHONE_POLL_MS": 400})
    server = ServerThread(app).start()
    services: Services = app.extensions[KEY]
    deadline = time.monotonic() + 10
    while not services.link.appliance_online() and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield Box(server.url, store, hub, services)
    finally:
        server.stop()
        services.link.stop()  # type: ignore[attr-defined]
        hub.stop()
        store.close()
