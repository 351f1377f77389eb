"""The live page for each of the four games, fed the board state the appliance publishes (the games' own
views): the points table, whose move it is, the time left and what the Next button does; and the TV
mirror with the join QR code in the lobby."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.fakes import FakeLink
from tests.web.tables import PLAYERS, answer, play_to_the_end, start
from web import live


def _show(link: FakeLink, flow: Any, remaining: float | None = None, scene: str = "playing") -> None:
    link.board_state.update({
        "scene": "results" if flow.finished else scene, "game": flow.game, "seats": list(PLAYERS),
        "view": flow.board(), "remaining": remaining, "can_advance": flow.can_advance(),
        "players": [{"name": p, "handset": f"hs-{p}", "colour": "#E69F00", "online": True, "battery": None,
                     "rssi": None, "seated": True} for p in PLAYERS],
    })
    link.changed()


def _table(page: str) -> dict[str, str]:
    rows = re.findall(r'<tr class="[^"]*"><td>([^<]+)</td><td class="num">([^<]+)</td></tr>', page)
    return dict(rows)


def _heading(page: str) -> str:
    found = re.search(r'<table class="list scores">\s*<thead><tr><th>Player</th><th class="num">([^<]+)</th>', page)
    assert found, "no points table"
    return html.unescape(found.group(1))


def _next_button(page: str) -> str:
    found = re.search(r'<button name="cmd" value="next" class="primary big"\s*(disabled)?>([^<]+)</button>', page)
    assert found, "no Next button"
    return ("disabled " if found.group(1) else "") + found.group(2)


def test_confident_reads_scores_waiting_players_time_and_reveal(admin: FlaskClient, link: FakeLink) -> None:
    flow = start("confident", {"target": 4, "variants": ["fast_play"], "fast_play_seconds": 30})
    answer(flow, "Bob", {"bottom": "1", "top": "9"})
    _show(link, flow, remaining=12.4)
    page = admin.get("/live/").get_data(as_text=True)
    assert "Playing Confident?" in page and "Waiting for Ann, Cat" in page
    assert '<span class="seconds">13</span> s left' in page and 'data-remaining="12.4"' in page
    assert _next_button(page) == "Close entries"
    answer(flow, "Ann", {"bottom": "8", "top": "8"})
    answer(flow, "Cat", {"copy": "Ann"})
    _show(link, flow)
    page = admin.get("/live/").get_data(as_text=True)
    assert _next_button(page) == "Reveal" and "data-remaining" not in page
    flow.advance(2.0)
    _show(link, flow)
    page = admin.get("/live/").get_data(as_text=True)
    assert _heading(page) == "Points (target 4)"
    # Cat copied Ann's range (rules.md Confident 6); everyone correct, so the biggest scores 0 (rule 3)
    assert _table(page) == {"Ann": "3", "Bob": "0", "Cat": "3"}
    assert _next_button(page) == "Next question"


def test_poker_reads_stacks_and_the_player_to_act(admin: FlaskClient, link: FakeLink) -> None:
    flow = start("poker", {"stack": 100, "ante": 10})
    _show(link, flow)
    page = admin.get("/live/").get_data(as_text=True)
    assert "Waiting for Ann, Bob, Cat (ranges)" in page and _next_button(page) == "disabled Next"
    for player in PLAYERS:
        answer(flow, player, {"bottom": "1", "top": "20"})
    _show(link, flow, remaining=20.0)
    page = admin.get("/live/").get_data(as_text=True)
    to_act = flow.board()["to_act"]
    assert f"{to_act} to act" in page and _heading(page) == "Chips"
    assert _table(page) == {p: "90" for p in PLAYERS}


def test_all_in_reads_chips_the_reader_and_the_bettors(admin: FlaskClient, link: FakeLink) -> None:
    flow = start("allin", {"chips": 10})
    _show(link, flow)
    page = admin.get("/live/").get_data(as_text=True)
    assert "Ann reads: choosing a statement" in page and _heading(page) == "Chips"
    answer(flow, "Ann", {"choices": {"pick": "0", "answer": "true"}})
    answer(flow, "Bob", {"split": {"true": 10, "false": 0}})
    _show(link, flow)
    assert "Waiting for Cat (splits)" in admin.get("/live/").get_data(as_text=True)
    answer(flow, "Cat", {"split": {"true": 3, "false": 7}})
    _show(link, flow)
    page = admin.get("/live/").get_data(as_text=True)
    assert _table(page) == {"Ann": "10", "Bob": "10", "Cat": "3"}
    assert "Next reader: Bob" in page and _next_button(page) == "Next card"


def test_squizz_hides_points_until_the_end(admin: FlaskClient, link: FakeLink) -> None:
    flow = start("squizz")
    _show(link, flow)
    page = admin.get("/live/").get_data(as_text=True)
    assert _heading(page) == "Correct answers" and _table(page) == {p: "0" for p in PLAYERS}
    assert "Ann reads · Waiting for Bob, Cat" in page
    view = play_to_the_end(flow)
    _show(link, flow)
    page = admin.get("/live/").get_data(as_text=True)
    assert "Game over" in page and _heading(page) == "Points"
    assert _table(page) == {p: str(view["scores"][p]) for p in PLAYERS}
    winners = ", ".join(view["winners"])
    assert f"<strong>{winners}</strong>" in page


@pytest.mark.parametrize("game", ["confident", "poker", "allin", "squizz"])
def test_the_tv_mirror_draws_every_game(admin: FlaskClient, link: FakeLink, game: str) -> None:
    _show(link, start(game))
    image = admin.get("/live/board.png")
    assert image.status_code == 200 and image.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_panel_is_204_while_the_board_is_unchanged_even_with_a_clock(admin: FlaskClient, link: FakeLink) -> None:
    flow = start("confident", {"variants": ["fast_play"]})
    _show(link, flow, remaining=9.0)
    version = link.version()
    assert admin.get(f"/live/panel?v={version}").status_code == 204  # live.js counts down meanwhile
    answer(flow, "Ann", {"bottom": "1", "top": "2"})
    _show(link, flow, remaining=7.5)
    fresh = admin.get(f"/live/panel?v={version}")
    assert fresh.status_code == 200 and 'data-remaining="7.5"' in fresh.get_data(as_text=True)


def test_the_mirror_adds_how_phones_join_as_the_tv_does(admin: FlaskClient, link: FakeLink,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[dict[str, Any]] = []

    def draw(board: dict[str, Any]) -> bytes:
        drawn.append(dict(board))
        return b"png"

    monkeypatch.setattr(live, "board_png", draw)
    assert admin.get("/live/board.png").data == b"png"
    assert drawn[-1]["scene"] == "lobby"
    assert drawn[-1]["join"] == {"url": "http://webtest.local:8080/join", "address": "webtest.local:8080"}
    admin.application.config["JOIN_URL"] = "http://10.0.0.7:8080/join"
    admin.get("/live/board.png")
    assert drawn[-1]["join"]["url"] == "http://10.0.0.7:8080/join"


def test_the_lobby_picture_shows_the_join_code() -> None:
    from web.mirror import board_png

    lobby = {"v": 1, "box": "Test box", "scene": "lobby", "players": [], "seats": [], "view": None}
    without = board_png(lobby)
    with_join = board_png({**lobby, "join": {"url": "http://webtest.local:8080/join", "address": "webtest.local"}})
    assert without != with_join  # the QR code and the address are drawn where the handset hint was
