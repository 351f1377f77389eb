"""A corrupt database no longer stops the admin page (issue 17): it starts on an empty stand-in, sends
the quizmaster to the restore page, which says what is wrong and puts the last good copy back (now when
the box is not running, at its next start when it is)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from appliance.box import recovery
from appliance.infra.config import BoxConfig, Config
from appliance.infra.store import Store
from tests.web.conftest import post
from tests.web.fakes import ClientFactory, FakeLink
from web import create_app
from web.services import KEY

PASSWORD = "correct horse battery"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data folder whose database is ruined, with a good copy from before that holds one game."""
    folder = tmp_path / "data"
    with Store(folder / "quizbox.db") as store:
        game_id = store.create_game("confident", {"game": "confident", "players": [], "options": {}, "cards": []},
                                    {})
        store.finish_game(game_id, {"winners": ["Ann"]})
    recovery.copy_store(folder / "quizbox.db", folder / recovery.GOOD)
    (folder / "quizbox.db").write_bytes(b"\x00garbage after a bad night" * 400)
    for suffix in ("-wal", "-shm"):
        Path(f"{folder / 'quizbox.db'}{suffix}").unlink(missing_ok=True)
    return folder


def admin_page(tmp_path: Path, data: Path, link: FakeLink) -> tuple[Flask, FlaskClient]:
    config = Config(box=BoxConfig(id="webtest", name="Test box", data_dir=str(data)))
    app = create_app({"QUIZBOX_CONFIG": config, "LINK": link, "PHONE_FACTORY": ClientFactory(),
                      "INSTANCE_PATH": tmp_path / "instance", "TESTING": True,
                      "PASSWORD_METHOD": "pbkdf2:sha256:1000"})
    app.extensions[KEY].account.set_password(PASSWORD)
    client = app.test_client()
    assert post(client, "/login", {"password": PASSWORD}).status_code == 302
    return app, client


def test_the_admin_page_starts_on_a_damaged_database_and_puts_the_good_copy_back(tmp_path: Path, data: Path) -> None:
    link = FakeLink()
    link.online = False  # the quiz program is down (it could not start either)
    app, admin = admin_page(tmp_path, data, link)
    live = admin.get("/live/")
    assert live.status_code == 302 and live.headers["Location"].endswith("/restore/")
    page = admin.get("/restore/").get_data(as_text=True)
    assert "cannot read the database" in page and "The last good copy was made on" in page
    assert "1 game" in page
    done = post(admin, "/restore/", {}, page="/restore/", follow_redirects=True).get_data(as_text=True)
    assert "The last good copy is back" in done and "quizbox.db.damaged-" in done
    services = app.extensions[KEY]
    assert [g.status for g in services.store.games()] == ["finished"]  # the page reads the restored file
    assert admin.get("/live/").status_code == 200  # and every page works again
    assert list(data.glob("quizbox.db.damaged-*"))  # nothing deleted


def test_while_the_box_runs_the_restore_waits_for_its_next_start(tmp_path: Path, data: Path) -> None:
    link = FakeLink()  # the quiz program answers: it holds the database open
    app, admin = admin_page(tmp_path, data, link)
    answer = post(admin, "/restore/", {}, page="/restore/", follow_redirects=True).get_data(as_text=True)
    assert "when the quiz program starts again" in answer
    assert (data / recovery.RESTORE_REQUEST).exists()
    report = recovery.check_on_start(data / "quizbox.db")  # what the next start does
    assert report.restored and report.requested and not (data / recovery.RESTORE_REQUEST).exists()
    assert "as asked on the admin page" in report.words()


def test_the_live_page_shows_the_last_starts_report_and_failing_parts(tmp_path: Path) -> None:
    from appliance.infra.health import Health

    folder = tmp_path / "data"
    health = Health(folder)
    health.failing("board", "no picture: kmsdrm not available; trying again in 8 s")
    health.set_recovery({"found": True, "text": "A power cut lost 2 answers of question 4 (Ann, Bob)."})
    with Store(folder / "quizbox.db"):
        pass
    _, admin = admin_page(tmp_path, folder, FakeLink())
    page = admin.get("/live/").get_data(as_text=True)
    assert "TV board: no picture: kmsdrm not available" in page
    assert "A power cut lost 2 answers of question 4 (Ann, Bob)." in page
