"""A real box for the browser tests: the appliance as ``quizbox run`` assembles it (store with the shipped
decks, session, hub dealing cards from the store by deck id) on the test's mosquitto, and the admin app
under waitress.

Browser tests drive Debian's chromium (``apt-get install chromium``) through Playwright; they FAIL, not
skip, when CI=true and chromium or Playwright is missing. ``playwright install`` is never used.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from appliance.box.app import Appliance
from appliance.edge.broker import MosquittoBroker
from appliance.edge.hub import Hub
from appliance.infra.config import BoxConfig, BrokerConfig, Config
from appliance.infra.store import Store
from tests.conftest import connection_of
from tests.web.fakes import ClientFactory, FakeLink
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


def shot(page: Any, name: str) -> Path:
    """A full-page screenshot kept as a test artifact (artifacts/web-screens/web-<name>.png)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"web-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@dataclass
class Box:
    url: str
    store: Store
    hub: Hub
    services: Services

    def shot(self, page: Any, name: str) -> Path:
        return shot(page, name)


def _expect() -> Any:
    """Playwright's ``expect`` (imported when a browser test runs, not when the suite is collected)."""
    from playwright.sync_api import expect

    return expect


def join_phone(browser: Any, url: str, name: str, greeting: str | None = None, width: int = 360,
               timeout: float = 5_000) -> Any:
    """A phone (a browser context of its own, a phone-sized touch screen) joined as ``name``: its page, once
    its panel says ``greeting`` (by default "Hello <name>")."""
    page = browser.new_context(viewport={"width": width, "height": 740}, is_mobile=True, has_touch=True).new_page()
    page.goto(url + "/join")
    page.fill("input[name=name]", name)
    page.click("button:has-text('Join the game')")
    _expect()(page.locator(".phone-panel")).to_contain_text(greeting or f"Hello {name}", timeout=timeout)
    return page


@contextlib.contextmanager
def running_appliance(mosquitto: MosquittoBroker, box_id: str, tmp_path: Path) -> Iterator[tuple[Config, Appliance]]:
    """The quiz program on the test's mosquitto, started, with its config (for a web server beside it)."""
    conn = connection_of(mosquitto)
    config = Config(box=BoxConfig(id=box_id, name="Quizbox test", data_dir=str(tmp_path / "data")),
                    broker=BrokerConfig(host=conn.host, port=conn.port))
    with Appliance(config, rng=random.Random(7)) as appliance:
        appliance.start()
        assert appliance.hub is not None and appliance.store is not None
        yield config, appliance


def wait_online(services: Services, seconds: float = 10.0) -> None:
    """Until the web server hears the appliance's heartbeat (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not services.link.appliance_online() and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.fixture
def box(mosquitto: MosquittoBroker, box_id: str, tmp_path: Path) -> Iterator[Box]:
    with running_appliance(mosquitto, box_id, tmp_path) as (config, appliance):
        assert appliance.hub is not None and appliance.store is not None
        app = create_app({"QUIZBOX_CONFIG": config, "STORE": appliance.store, "PHONE_POLL_MS": 400,
                          # every phone of these tests comes from 127.0.0.1; the per-address bound has its own test
                          "PHONES_PER_ADDRESS": 16, "JOINS_PER_ADDRESS": 30})
        server = ServerThread(app).start()
        services: Services = app.extensions[KEY]
        wait_online(services)
        try:
            yield Box(server.url, appliance.store, appliance.hub, services)
        finally:
            server.stop()
            services.link.stop()  # type: ignore[attr-defined]


@dataclass
class PhoneBox:
    """The admin app with a stand-in appliance: the test plays the appliance's part for one phone handset
    (delivers its prompts and acks on the fake MQTT client, reads what it publishes)."""

    url: str
    clients: ClientFactory
    services: Services

    def shot(self, page: Any, name: str) -> Path:
        return shot(page, name)


def log_in(box: Box | PhoneBox, page: Any, password: str = "pub-quiz-night") -> None:
    """The quizmaster logs in on ``page``: the password is set on the box, not through the first-run page
    (tests/browser/test_game_e2e.py goes through that one)."""
    box.services.account.set_password(password)
    page.goto(box.url + "/login")
    page.fill("input[name=password]", password)
    page.click("button:has-text('Log in')")
    page.wait_for_url("**/live/")


@pytest.fixture
def phone_box(tmp_path: Path) -> Iterator[PhoneBox]:
    clients = ClientFactory()
    config = Config(box=BoxConfig(id="phonetest", name="Phone test", data_dir=str(tmp_path / "data")))
    store = Store(tmp_path / "quizbox.db")
    app = create_app({"QUIZBOX_CONFIG": config, "LINK": FakeLink(), "PHONE_FACTORY": clients, "STORE": store,
                      "PHONE_POLL_MS": 200, "PHONES_PER_ADDRESS": 16})
    server = ServerThread(app).start()
    try:
        yield PhoneBox(server.url, clients, app.extensions[KEY])
    finally:
        server.stop()
        store.close()
