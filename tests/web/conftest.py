"""Flask test-client fixtures: an app on a temporary instance folder and database, a fake appliance link
and fake phone MQTT clients. CSRF stays ON: helpers read the token from a page like a browser does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from appliance.infra.config import BoxConfig, Config
from appliance.infra.store import Store
from tests.web.fakes import ClientFactory, FakeLink
from web import create_app
from web.services import KEY, Services

PASSWORD = "correct horse battery"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def link() -> FakeLink:
    return FakeLink()


@pytest.fixture
def phone_clients() -> ClientFactory:
    return ClientFactory()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "quizbox.db") as s:
        yield s


@pytest.fixture
def app(tmp_path: Path, link: FakeLink, phone_clients: ClientFactory, store: Store) -> Iterator[Flask]:
    config = Config(box=BoxConfig(id="webtest", name="Test box", data_dir=str(tmp_path / "data")))
    app = create_app({"QUIZBOX_CONFIG": config, "LINK": link, "PHONE_FACTORY": phone_clients, "STORE": store,
                      "INSTANCE_PATH": tmp_path / "instance", "TESTING": True,
                      "PASSWORD_METHOD": "pbkdf2:sha256:1000", "EXTRA_GAMES": {"guess": "estimation"}})
    yield app
    services(app).phones.close()


def services(app: Flask) -> Services:
    services: Services = app.extensions[KEY]
    return services


def token(client: FlaskClient, url: str = "/login") -> str:
    page = client.get(url, follow_redirects=True).get_data(as_text=True)
    found = TOKEN.search(page)
    assert found, f"no CSRF token on {url}"
    return found.group(1)


def post(client: FlaskClient, url: str, data: dict[str, Any] | None = None, page: str | None = None,
         **kwargs: Any) -> TestResponse:
    """POST like a browser: with the CSRF token of the session (read from ``page``)."""
    form = dict(data or {})
    form["csrf_token"] = token(client, page or "/login")
    return client.post(url, data=form, **kwargs)


@pytest.fixture
def setup_done(app: Flask) -> Flask:
    services(app).account.set_password(PASSWORD)
    return app


@pytest.fixture
def admin(setup_done: Flask) -> FlaskClient:
    client = setup_done.test_client()
    response = post(client, "/login", {"password": PASSWORD})
    assert response.status_code == 302
    return client
