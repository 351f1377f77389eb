"""Security audit (guest on the pub's Wi-Fi): one address takes every phone place with saved cookies.

docs/security.md: "A network address holds at most 2 phone places (of 16)". The bound is checked when a
phone joins (web/phones.py ``Phones.join``), but a phone's signed cookie brings it back with
``Phones.resume``, which makes the phone again when the server forgot it and checks only the total. A
guest joins two phones, keeps their cookies, lets them lapse (an unseated phone that stops polling gives
its place back after 60 s) and joins two more, within the join limit (6 per address per 10 minutes):
about half an hour later they hold 16 cookies, and replaying them at once takes all 16 places from one
address. Polling keeps them; nobody else can join as a phone.

The clocks of the phones and of the join limit are moved on by hand where the guest would wait.
"""

from __future__ import annotations

import time

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import post, services

GUEST = "10.0.7.7"


def _from(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_saved_phone_cookies_do_not_give_one_address_more_than_its_phone_places(app: Flask) -> None:
    phones, joins = services(app).phones, services(app).joins
    cookie_name = app.config["SESSION_COOKIE_NAME"]
    per_address, places = int(app.config["PHONES_PER_ADDRESS"]), int(app.config["MAX_PHONES"])
    now = [time.monotonic()]
    phones.clock = lambda: now[0]  # type: ignore[method-assign]
    joins.clock = lambda: now[0]
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
            assert post(guest, "/join", {"name": "One more"}, page="/join").status_code == 400
            now[0] += 600.0
        now[0] += 61.0  # the guest stops polling: unseated phones give their places back
        phones.reap()
        now[0] += 600.0 * per_address / 6  # and waits out the join limit (6 per 10 minutes)
    assert len(phones) == 0
    # the guest replays every saved cookie from the same address: each phone polls its panel
    for value in saved:
        replay = _from(app, GUEST)
        replay.set_cookie(cookie_name, value)
        replay.get("/phone/panel")
    held = len(phones)
    table = _from(app, "10.0.8.1")
    reply = post(table, "/join", {"name": "The real table"}, page="/join")
    full = "Every phone place is taken" in reply.get_data(as_text=True)
    assert held <= per_address and reply.status_code == 302, (
        f"one address holds {held} of {places} phone places with saved cookies; a table joining got "
        f"{reply.status_code}{' (every phone place is taken)' if full else ''}")
