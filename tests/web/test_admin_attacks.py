"""Issue 16's attacks on the admin page: many addresses guessing the password, a copied cookie after a
logout or a new password, and guests taking every phone place. Each names what it did before the fix."""

from __future__ import annotations

import time

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import PASSWORD, post, services
from web.throttle import DEVICE_COOKIE


def _from(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_others_failures_never_lock_the_quizmasters_own_device_out(setup_done: Flask) -> None:
    """Before: 5 wrong passwords from each of 7 addresses locked the quizmaster out too (a global
    throttle, renewable for ever)."""
    mine = _from(setup_done, "10.0.0.2")
    assert post(mine, "/login", {"password": PASSWORD}).status_code == 302  # the device is remembered
    assert mine.get_cookie(DEVICE_COOKIE) is not None
    post(mine, "/logout", page="/handsets/")
    codes = []
    for n in range(7):
        guesser = _from(setup_done, f"10.0.1.{n}")
        codes += [post(guesser, "/login", {"password": f"guess {n}-{i}"}).status_code for i in range(6)]
    assert codes.count(401) >= 30 and codes.count(429) > 0  # each address backs off; the account cap holds
    again = _from(setup_done, "10.0.1.9")
    assert post(again, "/login", {"password": PASSWORD}).status_code == 429  # a new address waits too
    assert post(mine, "/login", {"password": PASSWORD}).status_code == 302  # the quizmaster's device does not
    assert mine.get("/decks/").status_code == 200


def test_the_quizmasters_device_sharing_an_address_with_a_guesser_still_logs_in(setup_done: Flask) -> None:
    mine = _from(setup_done, "10.0.0.7")
    assert post(mine, "/login", {"password": PASSWORD}).status_code == 302
    post(mine, "/logout", page="/handsets/")
    guesser = _from(setup_done, "10.0.0.7")  # the same pub Wi-Fi address (NAT)
    codes = [post(guesser, "/login", {"password": f"guess {i}"}).status_code for i in range(8)]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}
    assert post(mine, "/login", {"password": PASSWORD}).status_code == 302


def test_one_address_backs_off_longer_and_longer(setup_done: Flask) -> None:
    guesser = _from(setup_done, "10.0.2.1")
    codes = [post(guesser, "/login", {"password": f"guess {i}"}).status_code for i in range(6)]
    assert codes == [401] * 5 + [429]
    page = post(guesser, "/login", {"password": PASSWORD})
    assert page.status_code == 429 and "wait" in page.get_data(as_text=True)
    assert int(page.headers["Retry-After"]) > 0


def test_logging_out_revokes_a_copied_cookie(admin: FlaskClient, setup_done: Flask) -> None:
    """Before: logging out did not revoke a copied cookie (valid 12 h)."""
    thief = setup_done.test_client()
    name = setup_done.config["SESSION_COOKIE_NAME"]
    thief.set_cookie(name, admin.get_cookie(name).value)  # type: ignore[union-attr]
    assert thief.get("/decks/").status_code == 200  # the copy works while the session lives
    post(admin, "/logout", page="/handsets/")
    assert thief.get("/decks/").status_code == 302, "the copied cookie outlived the logout"


def test_a_new_password_revokes_every_other_session(admin: FlaskClient, setup_done: Flask) -> None:
    other = setup_done.test_client()
    assert post(other, "/login", {"password": PASSWORD}).status_code == 302
    changed = post(admin, "/password", {"current": PASSWORD, "password": "a brand new password",
                                        "again": "a brand new password"}, page="/password")
    assert changed.status_code == 302
    assert other.get("/decks/").status_code == 302 and admin.get("/decks/").status_code == 200


def test_phone_places_are_bounded_per_address_and_unseated_ones_come_back(app: Flask) -> None:
    """Before: 4 addresses x 6 joins took all 16 phone places for 600 s."""
    phones = services(app).phones
    taken = 0
    for n in range(4):
        guest = _from(app, f"10.0.3.{n}")
        for i in range(6):
            guest.delete_cookie(app.config["SESSION_COOKIE_NAME"])
            page = post(guest, "/join", {"name": f"Guest {n}-{i}"}, page="/join")
            taken += page.status_code == 302
    assert taken == 8 and len(phones) == 8  # two places per address
    table = _from(app, "10.0.4.1")
    assert post(table, "/join", {"name": "The real table"}, page="/join").status_code == 302
    # nobody seated the guests' phones: once they stop polling they give their places back
    later = time.monotonic() + 10_000.0  # (a fixed 10,000 s fails on a machine up longer than that)
    phones.clock = lambda: later  # type: ignore[method-assign]
    phones.reap()
    assert len(phones) == 0
