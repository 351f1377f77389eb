"""The Settings page (issue 31, 15; issue 30, 5): the box's settings set on the admin page, stored so the
quiz program reads them too (load_config), bad values refused with clear words and nothing lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from appliance.infra import settings as box_settings
from appliance.infra.config import load_config
from tests.web.conftest import post, services
from tests.web.fakes import FakeLink
from web.phones import PhonesFull

GOOD = {"box.name": "The Crown", "box.join": "approve", "game.answer_seconds": "45", "web.phones": "90",
        "board.sound": "on", "board.resolution": "1280x720"}


def _toml(tmp_path: Path, app: Flask) -> Path:
    data = app.config["BOX_CONFIG"].data_path
    path = tmp_path / "quizbox.toml"
    path.write_text(f'[box]\nid = "webtest"\nname = "From the file"\ndata_dir = "{data}"\n', encoding="utf-8")
    return path


def test_every_setting_is_on_the_page_with_where_it_applies(admin: FlaskClient) -> None:
    page = admin.get("/settings/").get_data(as_text=True)
    for label in ("The box&#39;s name", "Join approval", "Answer time", "Phone places", "Sound",
                  "The TV&#39;s resolution", "Change the admin password"):
        assert label in page, label
    assert 'name="web.phones" value="120"' in page  # the default fits 40 teams with 3 phones each
    assert "Applies at once" in page and "Applies when the box next starts" in page


def test_saved_settings_are_what_the_quiz_program_loads(tmp_path: Path, app: Flask, admin: FlaskClient) -> None:
    response = post(admin, "/settings/", GOOD, page="/settings/")
    assert response.status_code == 302
    assert "Settings saved" in admin.get("/settings/").get_data(as_text=True)
    config = load_config(_toml(tmp_path, app))  # the quiz program's way in: the TOML, then the stored values
    assert (config.box.name, config.box.join, config.game.answer_seconds) == ("The Crown", "approve", 45)
    assert (config.web.phones, config.board.sound, config.board.width, config.board.height) == (90, True, 1280, 720)
    # what the admin page uses itself applies at once
    assert services(app).phones.max_phones == 90
    assert "The Crown" in admin.get("/settings/").get_data(as_text=True)


def test_a_bad_value_is_refused_by_name_and_nothing_is_stored(tmp_path: Path, app: Flask,
                                                              admin: FlaskClient) -> None:
    post(admin, "/settings/", GOOD, page="/settings/")
    stored = box_settings.path_for(app.config["BOX_CONFIG"].data_path).read_text(encoding="utf-8")
    for key, bad, words in (("web.phones", "0", "Phone places: from 1 to 160, got 0"),
                            ("web.phones", "lots", "Phone places: a whole number from 1 to 160"),
                            ("game.answer_seconds", "601", "Answer time (seconds): from 0 to 600"),
                            ("box.name", "", "The box&#39;s name: cannot be empty"),
                            ("box.name", "x" * 25, "at most 24 characters"),
                            ("board.resolution", "800x600", "one of 1920x1080, 1280x720, 3840x2160"),
                            ("box.join", "everyone", "Join approval: one of open, approve")):
        form = GOOD | {"box.name": "Changed", key: bad} if key != "box.name" else GOOD | {key: bad}
        response = post(admin, "/settings/", form, page="/settings/")
        page = response.get_data(as_text=True)
        assert response.status_code == 400, key
        assert "Nothing was saved" in page and words in page, (key, page[:2000])
        assert f'value="{bad}"' in page or bad not in ("0", "lots", "601", "") or key == "box.name"
        assert box_settings.path_for(app.config["BOX_CONFIG"].data_path).read_text(encoding="utf-8") == stored
    assert services(app).phones.max_phones == 90


def test_a_damaged_settings_file_is_named_not_half_read(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text("{not json", encoding="utf-8")
    path = tmp_path / "quizbox.toml"
    path.write_text(f'[box]\ndata_dir = "{data}"\n', encoding="utf-8")
    try:
        load_config(path)
    except Exception as exc:  # noqa: BLE001 - the one error the quiz program reports
        assert "settings.json" in str(exc) and "not readable settings" in str(exc)
    else:
        raise AssertionError("a damaged settings file was read")
    (data / "settings.json").write_text(json.dumps({"web.phones": "9999"}), encoding="utf-8")
    try:
        load_config(path)
    except Exception as exc:  # noqa: BLE001
        assert "Phone places: from 1 to 160, got 9999" in str(exc)
    else:
        raise AssertionError("an out-of-range stored value was taken")


def test_the_answer_time_reaches_a_new_game_unless_it_is_the_buzzer(app: Flask, admin: FlaskClient,
                                                                   link: FakeLink) -> None:
    post(admin, "/settings/", GOOD, page="/settings/")
    link.add_handset("h1", "Ann")
    link.add_handset("h2", "Bob")
    with app.test_request_context():
        from web.games import start_command

        decks = {d["type"]: d["id"] for d in services(app).store.decks() if d["cards"]}
        form = {"player-0": "Ann", "handset-0": "h1", "player-1": "Bob", "handset-1": "h2"}
        game = {"game": "confident", "deck": decks["estimation"]}
        assert start_command(MultiDict(form | game))["options"]["answer_seconds"] == 45
        buzzer = {"game": "buzzer", "deck": decks["buzzer"]} if "buzzer" in decks else None
        if buzzer:  # the buzzer round has no answer time: the quizmaster judges
            assert "answer_seconds" not in start_command(MultiDict(form | buzzer))["options"]


def test_turned_away_phones_show_on_the_settings_page(app: Flask, admin: FlaskClient) -> None:
    phones = services(app).phones
    phones.max_phones = 1
    phones.join("Ann", "10.0.0.1")
    for _ in range(2):
        with pytest.raises(PhonesFull):
            phones.join("Bob", "10.0.0.2")
    page = admin.get("/settings/").get_data(as_text=True)
    assert "2 phones were turned away: all 1 phone places were taken" in page


def test_phone_places_fit_the_room_and_the_web_process_files() -> None:
    """Issue 30, 5: 40 teams with several phones each by default; the most the page offers, with every
    phone's MQTT link (3 files) and every web connection, stays within the 1024 files select() watches."""
    from appliance.infra.config import Config
    from web.settings import DEFAULTS

    assert Config().web.phones >= 40 * 3
    assert box_settings.MAX_PHONE_PLACES * 3 + int(DEFAULTS["CONNECTION_LIMIT"]) + 64 <= 1024
    assert int(DEFAULTS["CONNECTION_LIMIT"]) >= Config().web.phones * 2 + 2 * 6  # each phone's steady one or two


def test_the_live_page_says_when_phones_are_turned_away_and_refreshes(app: Flask, admin: FlaskClient) -> None:
    """Issue 30, 5: the 17th phone was told "every place is taken" and the quizmaster was told nothing."""
    import re

    before = admin.get("/live/panel").get_data(as_text=True)
    version = re.search(r'data-version="([^"]+)"', before)
    assert version and "turned away" not in before
    phones = services(app).phones
    phones.max_phones = 1
    phones.join("Ann", "10.0.0.1")
    with pytest.raises(PhonesFull):
        phones.join("Bob", "10.0.0.2")
    after = admin.get("/live/panel").get_data(as_text=True)
    assert "1 phone was turned away: all 1 phone places were taken" in after and "Phone places: Settings" in after
    assert f'data-version="{version.group(1)}"' not in after  # a polling Live page redraws with it


def test_the_audio_output_and_the_media_space_are_settings(tmp_path: Path, app: Flask, admin: FlaskClient) -> None:
    """Issue 34: the box's audio output and the space its decks' pictures and sounds may take are set on the
    Settings page (they were config keys only); a blank audio output is the default device, a space of 0 MB
    is refused by name."""
    page = admin.get("/settings/").get_data(as_text=True)
    assert "Audio output" in page and "Space for pictures and sounds (MB)" in page
    response = post(admin, "/settings/", GOOD | {"board.audio_device": "", "box.media_cap_mb": "0"}, page="/settings/")
    assert response.status_code == 400
    assert "Space for pictures and sounds (MB): from 1 to 100000, got 0" in response.get_data(as_text=True)
    response = post(admin, "/settings/", GOOD | {"board.audio_device": "hdmi:1", "box.media_cap_mb": "800"},
                    page="/settings/")
    assert response.status_code == 302
    config = load_config(_toml(tmp_path, app))
    assert (config.board.audio_device, config.box.media_cap_mb) == ("hdmi:1", 800)
    assert post(admin, "/settings/", GOOD | {"board.audio_device": ""}, page="/settings/").status_code == 302
    assert load_config(_toml(tmp_path, app)).board.audio_device == ""
