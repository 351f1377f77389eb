"""A phone's name at join (issue 31, 8 and 9): an emoji (an empty box on the TV, whose fonts have none) is
refused with words that say so; the refusal's words match what is accepted (they said "Letters, digits
and spaces only" while emoji and `<` went through); a name already at the table is refused instead of
becoming "Dave-3" on the TV while the phone says "Hello Dave!"; a phone that never had a seat is not told
to "take back your seat"."""

from __future__ import annotations

import html

from flask import Flask

from appliance.board import undrawable
from tests.web.conftest import post, services
from tests.web.fakes import FakeLink


def _join(app: Flask, name: str) -> tuple[int, str]:
    client = app.test_client()
    response = post(client, "/join", {"name": name}, page="/join")
    return response.status_code, html.unescape(response.get_data(as_text=True))


def test_the_tv_fonts_say_what_they_cannot_draw() -> None:
    assert undrawable("Les Quizérables <3 Ωmega Жук €5") == []
    assert undrawable("Dave 😀👍🏽 中") == ["😀", "👍", "🏽", "中"]


def test_an_emoji_name_is_refused_at_join_with_a_clear_word(app: Flask) -> None:
    status, page = _join(app, "Dave 😀")
    assert status == 400 and "The TV cannot show 😀 (no emoji, please)" in page
    assert len(services(app).phones) == 0
    status, _ = _join(app, "<Quizérables>")  # punctuation the TV draws is a name, and the words say so
    assert status == 302
    status, page = _join(app, "a\u0007b")
    assert status == 400 and "Letters, digits, spaces and punctuation only" in page


def test_a_name_at_the_table_is_refused_not_renamed(app: Flask, link: FakeLink) -> None:
    link.add_handset("hs-1", "Dave")
    status, page = _join(app, "dave")
    assert status == 400 and "dave is already at the table: add your team's initial or a number" in page
    assert _join(app, "Dave 2")[0] == 302
    link.add_handset("hs-9", "Cat", online=False)  # Cat's phone went offline: she may come back as Cat
    assert _join(app, "Cat")[0] == 302


def test_a_phone_without_a_seat_is_not_told_to_take_one_back(app: Flask, link: FakeLink) -> None:
    link.add_handset("hs-1", "Ann", online=False)
    link.board_state.update({"scene": "playing", "players": [
        {"name": "Ann", "handset": "hs-1", "online": False, "seated": True}], "seats": ["Ann"],
        "seats_away": ["Ann"]})
    link.changed()
    client = app.test_client()
    post(client, "/join", {"name": "Zed"}, page="/join")
    page = client.get("/phone/panel").get_data(as_text=True)
    assert "Take back your seat" not in page  # this phone never had one
    assert 'class="retake' in page  # the form stays for a team whose phone went offline, and says so
    assert "Playing already, on a phone that went offline?" in page
    assert "New here? Nothing to do: the quizmaster seats you." in page
