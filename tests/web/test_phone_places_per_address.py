"""A network address holds at most 2 phone places (of 16) however its phones come: joining, or coming back
with a saved cookie after their places lapsed (docs/security.md).

A phone's signed cookie brings it back with ``Phones.resume`` (web/phones.py), which makes the phone
again when the server forgot it. A guest who joins two phones, keeps their cookies, lets them lapse (an
unseated phone that stops polling gives its place back after 60 s) and joins two more, within the join
limit (6 per address per 10 minutes), holds 16 cookies about half an hour later: replaying them at once
must not take more than the address's 2 places, and a table elsewhere can still join. (Before: the resume
checked only the total, so the replay took all 16 places from one address and nobody else could join.)

The bound is for a phone whose place lapsed: a phone still holding its place resumes from any address,
and a phone seated in the game always gets back to its seat. A phone refused is told why on the join
page, as a join is.

The clocks of the phones and of the join limit are moved on by hand where the guest would wait.
"""

from __future__ import annotations

import time

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import post, services
from tests.web.fakes import FakeLink

GUEST = "10.0.7.7"
ADDRESS_FULL = "Your network address already holds its 2 phone places"
LAPSED = "Your phone was away and its place was given back."


def _from(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def _join(app: Flask, address: str, name: str) -> tuple[str, str]:
    """A phone joined from ``address``: its handset id and its saved cookie."""
    client = _from(app, address)
    assert post(client, "/join", {"name": name}, page="/join").status_code == 302
    cookie = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    assert cookie is not None
    (handset_id,) = [h for h, phone in services(app).phones._phones.items() if phone.name == name]  # noqa: SLF001
    return handset_id, cookie.value


def _replay(app: Flask, address: str, cookie: str) -> FlaskClient:
    client = _from(app, address)
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], cookie)
    return client


def _manual_clock(app: Flask) -> list[float]:
    now = [time.monotonic()]
    services(app).phones.clock = lambda: now[0]  # type: ignore[method-assign]
    services(app).joins.clock = lambda: now[0]
    return now


def test_saved_phone_cookies_do_not_give_one_address_more_than_its_phone_places(app: Flask) -> None:
    phones = services(app).phones
    cookie_name = app.config["SESSION_COOKIE_NAME"]
    per_address, places = int(app.config["PHONES_PER_ADDRESS"]), int(app.config["MAX_PHONES"])
    now = _manual_clock(app)
    saved: list[str] = []
    guest = _from(app, GUEST)
    while len(saved) < places:
        for _ in range(per_address):
            guest.delete_cookie(cookie_name)
            assert post(guest, "/join", {"name": f"Guest {len(saved)}"}, page="/join").status_code == 302
            cookie = guest.get_cookie(cookie_name)
            assert cookie is not None
            saved.append(cookie.value)
        if len(saved) == per_address:  # the bound holds for joins (a join try counts against the join limit)
            guest.delete_cookie(cookie_name)
            refused = post(guest, "/join", {"name": "One more"}, page="/join")
            assert refused.status_code == 400 and ADDRESS_FULL in refused.get_data(as_text=True)
            now[0] += 600.0
        now[0] += 61.0  # the guest stops polling: unseated phones give their places back
        phones.reap()
        now[0] += 600.0 * per_address / 6  # and waits out the join limit (6 per 10 minutes)
    assert len(phones) == 0
    # the guest replays every saved cookie from the same address: each phone polls its panel
    answers = []
    for value in saved:
        replay = _replay(app, GUEST, value)
        answers.append(replay.get("/phone/panel").status_code)
    held = len(phones)
    assert answers == [200] * per_address + [410] * (places - per_address), answers
    # a refused phone is told why where the page sends it (phone.js: a 410 goes to /join)
    told = replay.get("/join").get_data(as_text=True)
    assert LAPSED in told and ADDRESS_FULL in told, told
    table = _from(app, "10.0.8.1")
    reply = post(table, "/join", {"name": "The real table"}, page="/join")
    full = "Every phone place is taken" in reply.get_data(as_text=True)
    assert held <= per_address and reply.status_code == 302, (
        f"one address holds {held} of {places} phone places with saved cookies; a table joining got "
        f"{reply.status_code}{' (every phone place is taken)' if full else ''}")


def test_a_phone_still_holding_its_place_resumes_from_an_address_holding_its_places(app: Flask) -> None:
    phones = services(app).phones
    first, first_cookie = _join(app, GUEST, "Ann")
    second, second_cookie = _join(app, GUEST, "Bob")
    moved, moved_cookie = _join(app, "10.0.9.9", "Cat")
    # Cat's phone moves to GUEST's address (another Wi-Fi, a new lease) before its place lapsed: it keeps it
    for name, cookie in (("Cat", moved_cookie), ("Ann", first_cookie), ("Bob", second_cookie)):
        page = _replay(app, GUEST, cookie).get("/phone/panel")
        assert page.status_code == 200 and f"Hello {name}!" in page.get_data(as_text=True), name
    assert len(phones) == 3 and all(phones.get(h) is not None for h in (first, second, moved))


def test_a_seated_phone_whose_place_lapsed_gets_back_to_its_seat_past_the_address_bound(
        app: Flask, link: FakeLink) -> None:
    phones = services(app).phones
    now = _manual_clock(app)
    seated, seated_cookie = _join(app, GUEST, "Sam")
    unseated, unseated_cookie = _join(app, GUEST, "Una")
    link.board_state["players"] = [{"name": "Sam", "handset": seated, "seated": True}]
    now[0] += phones.forget_seconds + 1  # both stop polling long enough for even a seated phone to lapse
    phones.reap()
    assert len(phones) == 0
    _join(app, GUEST, "New 1")
    _join(app, GUEST, "New 2")  # the address holds its 2 places again
    back = _replay(app, GUEST, seated_cookie).get("/phone/panel")
    assert back.status_code == 200 and "Hello Sam!" in back.get_data(as_text=True)
    assert phones.get(seated) is not None
    refused = _replay(app, GUEST, unseated_cookie)
    assert refused.get("/phone/panel").status_code == 410 and phones.get(unseated) is None
    told = refused.get("/join").get_data(as_text=True)
    assert LAPSED in told and ADDRESS_FULL in told, told
    assert len(phones) == 3
