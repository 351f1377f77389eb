"""The admin page's "Join a league" form: a malformed address or damaged code is refused with the typed
text kept and no file written; a good code is redeemed at the league's page once and the installer's code
writes the bridge, which the page then names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from appliance.infra.league_store import LeagueStore
from appliance.infra.store import Store
from appliance.league.joincode import new_code, secret_hash
from tests.deploy.tools import load_configure
from tests.league.test_league_web import CA, Service
from tests.web.conftest import post
from web.connections import guarded_server
from web.league import create_league_app

configure = load_configure()


@pytest.fixture
def league_page(tmp_path: Path) -> Iterator[tuple[str, LeagueStore]]:
    """The league box's page (web/league.py) served by waitress on loopback, its join endpoint real."""
    import threading

    store = LeagueStore(Store(tmp_path / "league.db"))
    server = guarded_server(create_league_app(Service(store), "127.0.0.1", 18883, CA), "127.0.0.1", 0)
    threading.Thread(target=server.run, daemon=True).start()
    yield f"http://127.0.0.1:{server.effective_port}", store
    server.close()


@pytest.fixture
def root(tmp_path: Path, app: Flask) -> Path:
    path = tmp_path / "root"
    configure.configure(path, "pub-a", "Pub A")
    app.config["QUIZBOX_ROOT"] = str(path)
    return path


def test_a_box_joins_a_league_from_the_admin_page(admin: FlaskClient, root: Path,
                                                   league_page: tuple[str, LeagueStore]) -> None:
    url, store = league_page
    code = new_code(url, "pub-a", CA)
    store.add_member("pub-a", secret_hash(code.secret))
    page = admin.get("/join-league").get_data(as_text=True)
    assert "Join a league" in page and "league member" not in page

    bad = post(admin, "/join-league", {"address": "league example", "code": code.text()}, page="/join-league")
    assert bad.status_code == 400
    text = bad.get_data(as_text=True)
    assert "is not a host name or address" in text and code.text() in text  # what was typed is kept
    damaged = post(admin, "/join-league", {"address": "127.0.0.1", "code": code.text()[:-8]}, page="/join-league")
    assert damaged.status_code == 400 and "damaged" in damaged.get_data(as_text=True)
    assert not (root / configure.LEAGUE_DROPIN).exists() and not (root / configure.LEAGUE_CA).exists()

    good = post(admin, "/join-league", {"address": "127.0.0.1:8884", "code": code.text()}, page="/join-league")
    assert good.status_code == 200, good.get_data(as_text=True)
    assert "Joined" in good.get_data(as_text=True)
    bridge = (root / configure.LEAGUE_DROPIN).read_text(encoding="utf-8")
    assert "address 127.0.0.1:8884" in bridge and "remote_password pw-pub-a" in bridge
    assert (root / configure.LEAGUE_CA).read_text(encoding="utf-8") == CA
    assert "its bridge goes to <strong>127.0.0.1:8884</strong>" in admin.get("/join-league").get_data(as_text=True)

    again = post(admin, "/join-league", {"address": "127.0.0.1", "code": code.text()}, page="/join-league")
    assert again.status_code == 400 and "used already" in again.get_data(as_text=True)
    assert (root / configure.LEAGUE_DROPIN).read_text(encoding="utf-8") == bridge


def test_the_form_needs_both_fields(admin: FlaskClient, root: Path) -> None:
    empty = post(admin, "/join-league", {"address": "", "code": ""}, page="/join-league")
    assert empty.status_code == 400 and "paste the join code" in empty.get_data(as_text=True)
