"""The live page (board mirror, game state, controls) and the handsets page."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.web.conftest import post
from tests.web.fakes import FakeLink
from tests.web.tables import answer, start
from web.link import Result


def _playing(link: FakeLink) -> None:
    """Confident? with Ann's range in: Bob and Cat still to answer."""
    flow = start("confident", {"target": 4})
    answer(flow, "Ann", {"bottom": "8", "top": "8"})
    link.add_handset("hs-1", "Ann", battery=81, rssi=-60)
    link.add_handset("hs-2", "Bob", online=False)
    link.board_state.update({
        "scene": "playing", "game": "confident", "remaining": 42.0, "can_advance": True,
        "players": [{"name": "Ann", "handset": "hs-1", "colour": "#E69F00", "online": True, "battery": 81,
                     "rssi": -60, "seated": True},
                    {"name": "Bob", "handset": "hs-2", "colour": "#56B4E9", "online": False, "battery": None,
                     "rssi": None, "seated": True}],
        "seats": ["Ann", "Bob", "Cat"], "view": flow.board(),
    })
    link.changed()


def test_live_page_shows_the_state_and_the_controls(admin: FlaskClient, link: FakeLink) -> None:
    _playing(link)
    page = admin.get("/live/").get_data(as_text=True)
    assert "Playing Confident?" in page
    assert '<span class="seconds">42</span> s left' in page
    assert "Waiting for Bob, Cat" in page
    assert ">Close entries</button>" in page
    for control in ("next", "pause", "skip", "undo", "end"):
        assert f'name="cmd" value="{control}"' in page
    assert 'src="/live/board.png' in page


def test_the_panel_answers_204_while_nothing_changed(admin: FlaskClient, link: FakeLink) -> None:
    version = link.version()
    assert admin.get(f"/live/panel?v={version}").status_code == 204
    link.board_state["message"] = "Disk nearly full"
    link.changed()
    fresh = admin.get(f"/live/panel?v={version}")
    assert fresh.status_code == 200 and "Disk nearly full" in fresh.get_data(as_text=True)


def test_the_board_picture_is_the_tv_renderer_as_png(admin: FlaskClient, link: FakeLink) -> None:
    _playing(link)
    image = admin.get("/live/board.png")
    assert image.mimetype == "image/png" and image.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_controls_are_sent_as_admin_commands(admin: FlaskClient, link: FakeLink) -> None:
    _playing(link)
    for name in ("next", "pause", "resume", "skip", "undo", "end", "lobby"):
        # the endings are confirmed first (tests/web/test_live_controls.py)
        data = {"cmd": name, **({"confirmed": "yes"} if name == "end" else {})}
        assert post(admin, "/live/command", data).status_code == 302
    assert [c["cmd"] for c in link.commands] == ["next", "pause", "resume", "skip", "undo", "end", "lobby"]
    post(admin, "/live/command", {"cmd": "start"})
    assert len(link.commands) == 7  # only the listed controls are sent from here
    link.answers["undo"] = Result(False, "nothing to undo")
    response = post(admin, "/live/command", {"cmd": "undo"}, follow_redirects=True)
    assert "refused: nothing to undo" in response.get_data(as_text=True)


def test_handsets_page_and_actions(admin: FlaskClient, link: FakeLink) -> None:
    _playing(link)
    link.add_handset("hs-3", "Newbie", accepted=False)
    page = admin.get("/handsets/").get_data(as_text=True)
    assert "Battery 81%" in page and "-60 dBm" in page and "seat: Ann" in page
    assert "waiting to be accepted" in page
    assert post(admin, "/handsets/hs-3/accept").status_code == 302
    post(admin, "/handsets/hs-1/rename", {"name": "Annie"})
    # a handset of its own cannot flash (the protocol has no message for it; a maker's audit found the page
    # saying "Flashing." while nothing happened): no button, and a hand-made post says so and sends nothing
    assert "Flash its screen" not in page
    flashed = post(admin, "/handsets/hs-1/identify", follow_redirects=True).get_data(as_text=True)
    assert "Only a phone handset can flash its screen" in flashed and "Flashing." not in flashed
    assert "Remove Bob?" in admin.get("/handsets/hs-2/remove").get_data(as_text=True)
    post(admin, "/handsets/hs-2/remove")
    assert link.commands == [{"cmd": "accept", "handset": "hs-3"},
                             {"cmd": "rename", "handset": "hs-1", "name": "Annie"},
                             {"cmd": "remove", "handset": "hs-2"}]
    too_long = post(admin, "/handsets/hs-1/rename", {"name": "x" * 30}, follow_redirects=True)
    assert "1 to 24 characters" in too_long.get_data(as_text=True) and len(link.commands) == 3
    assert admin.get("/handsets/nope/remove").status_code == 404
    assert post(admin, "/handsets/hs-1/explode").status_code == 404


def test_a_handset_asking_to_pair_is_listed_without_its_code_and_accepted_with_the_typed_one(
        admin: FlaskClient, link: FakeLink) -> None:
    link.admin["pairing"] = {"esp-3fa2": {"name": "Dan", "conflict": False},
                             "esp-0bad": {"name": None, "conflict": True}}
    link.admin["pairing_warnings"] = ["Two devices ask to be handset esp-0bad: neither can be paired."]
    link.changed()
    page = admin.get("/handsets/").get_data(as_text=True)
    assert "Asking to join" in page and "Accept Dan" in page and "type the code its screen shows" in page
    assert 'name="code" inputmode="numeric"' in page and 'value="0427"' not in page  # typed, not pre-filled
    assert "Two devices ask to be esp-0bad" in page and "Remove both requests" in page
    assert "Two devices ask to be handset esp-0bad: neither can be paired." in page
    assert post(admin, "/handsets/esp-3fa2/accept", {"code": "0427"}).status_code == 302
    assert link.commands[-1] == {"cmd": "accept", "handset": "esp-3fa2", "code": "0427"}


def test_undo_names_whose_input_it_takes_back_and_asks_first(admin: FlaskClient, link: FakeLink) -> None:
    """Issue 31.5: Undo said neither whose input it takes back nor asked first."""
    _playing(link)
    link.admin["undo"] = {"player": "Slow Sue", "kind": "range"}
    assert "Undo Slow Sue's last input" in admin.get("/live/panel").get_data(as_text=True)
    asked = post(admin, "/live/command", {"cmd": "undo"}).get_data(as_text=True)
    assert "Take back Slow Sue&#39;s last input?" in asked and "(range)" in asked and link.commands == []
    post(admin, "/live/command", {"cmd": "undo", "confirmed": "yes"})
    assert [c["cmd"] for c in link.commands] == ["undo"]
