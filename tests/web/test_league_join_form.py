"""The admin page's "Join a league" form: a malformed address or damaged code is refused with the typed
text kept and no file written; a good code is redeemed at the league's page once and the installer's code
writes the bridge, which the page then names."""

from __future__ import annotations

import json
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


def test_on_an_installed_box_the_form_asks_the_root_unit_and_shows_its_outcome(
        admin: FlaskClient, root: Path, league_page: tuple[str, LeagueStore]) -> None:
    """The installed admin page cannot write /etc nor restart mosquitto: it writes the request for
    quizbox-league-join.service and shows waiting, then the unit's outcome (here the unit's own function,
    configure.join_from_request, run on the same folder)."""
    url, store = league_page
    code = new_code(url, "pub-a", CA)
    store.add_member("pub-a", secret_hash(code.secret))
    watch = root / "etc/systemd/system/quizbox-league-join.path"
    watch.parent.mkdir(parents=True)
    watch.write_text("[Path]\n")
    restarts: list[str] = []

    asked = post(admin, "/join-league", {"address": "127.0.0.1:8884", "code": code.text()}, page="/join-league")
    assert asked.status_code == 303
    request = root / configure.LEAGUE_REQUEST
    fields = json.loads(request.read_text(encoding="utf-8"))
    assert request.stat().st_mode & 0o777 == 0o600
    assert asked.headers["Location"].endswith(f"/join-league?request={fields['request']}")
    assert (fields["address"], fields["code"]) == ("127.0.0.1:8884", code.text())
    assert not (root / configure.LEAGUE_DROPIN).exists(), "the page itself writes no bridge"
    waiting = admin.get(asked.headers["Location"]).get_data(as_text=True)
    assert "Joining: the box is asking the league" in waiting and 'http-equiv="refresh"' in waiting

    configure.join_from_request(root, restart=lambda: restarts.append("mosquitto") or "")
    joined = admin.get(asked.headers["Location"]).get_data(as_text=True)
    assert "Joined. The broker restarted with the bridge" in joined and 'http-equiv="refresh"' not in joined
    assert "joined the league at 127.0.0.1:8884 as pub-a" in joined and restarts == ["mosquitto"]
    assert "its bridge goes to <strong>127.0.0.1:8884</strong>" in joined

    again = post(admin, "/join-league", {"address": "127.0.0.1:8884", "code": code.text()}, page="/join-league")
    configure.join_from_request(root, restart=lambda: restarts.append("mosquitto") or "")
    refused = admin.get(again.headers["Location"]).get_data(as_text=True)
    assert "Not joined" in refused and "used already" in refused and restarts == ["mosquitto"]
    # an older request's page does not show the newer outcome as its own
    assert "Joining: the box is asking" in admin.get("/join-league?request=0123abcd").get_data(as_text=True)


def test_on_an_installed_box_a_request_the_page_cannot_write_is_said(admin: FlaskClient, root: Path) -> None:
    watch = root / "etc/systemd/system/quizbox-league-join.path"
    watch.parent.mkdir(parents=True)
    watch.write_text("[Path]\n")
    (root / configure.LEAGUE_REQUEST).parent.parent.mkdir(parents=True)
    (root / configure.LEAGUE_REQUEST).parent.write_text("a file where the folder goes")
    page = post(admin, "/join-league", {"address": "127.0.0.1", "code": "QBL1-x"}, page="/join-league")
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert "the join request could not be written" in text and "QBL1-x" in text
    long = post(admin, "/join-league", {"address": "a" * 300, "code": "QBL1-x"}, page="/join-league")
    assert long.status_code == 400 and "address is not 1-260 printable characters" in long.get_data(as_text=True)
