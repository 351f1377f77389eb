"""A phone polls its screen every second while the player presses buttons; a poll that was sent before a
press that changed the session (a seat-code answer flashed, a leave) and answered after it must not put
the old session back. The browser evening test lost the wrong-code notice this way in CI: the poll's
response re-sent the cookie it had been sent with, and the flash in the newer cookie was gone."""

from __future__ import annotations

from flask import Flask

from tests.web.conftest import post
from tests.web.test_phone import _join

COOKIE = "quizbox"


def test_a_poll_sets_no_cookie_when_the_session_did_not_change(app: Flask) -> None:
    client, _ = _join(app)
    response = client.get("/phone/panel")
    assert response.status_code in (200, 204)
    assert "Set-Cookie" not in response.headers, response.headers.get("Set-Cookie")


def test_a_poll_answered_after_a_seat_code_keeps_its_notice(app: Flask) -> None:
    client, _ = _join(app)
    before = client.get_cookie(COOKIE)
    assert before is not None
    # the poll leaves with the cookie as it is now ...
    poll = app.test_client()
    poll.set_cookie(COOKIE, before.value)
    # ... the player sends a seat code meanwhile: its answer is a notice kept in the session ...
    response = post(client, "/phone/seat", {"player": "Cat", "code": "abc"}, page="/phone")
    assert response.status_code == 302
    # ... and the poll's answer arrives last: whatever cookie it sets, the browser keeps
    late = poll.get("/phone/panel")
    for header in late.headers.getlist("Set-Cookie"):
        name, _, rest = header.partition("=")
        if name == COOKIE:
            client.set_cookie(COOKIE, rest.split(";", 1)[0])
    page = client.get("/phone").get_data(as_text=True)
    assert "Seat code: type the 4 digits the quizmaster gave you." in page
