"""First-run setup (with the setup code), login, throttling, logout and a new password."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import PASSWORD, post, services


def test_first_run_asks_for_the_setup_code_then_sets_the_password(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/decks/").location.endswith("/setup")
    account = services(app).account
    wrong = post(client, "/setup", {"code": "nope", "password": "a-long-password", "again": "a-long-password"})
    assert wrong.status_code == 401 and "setup code is wrong" in wrong.get_data(as_text=True)
    assert "quizbox demo" in wrong.get_data(as_text=True)  # where to read it, whichever way the box started
    assert not account.is_set
    short = post(client, "/setup", {"code": account.setup_code(), "password": "short", "again": "short"})
    assert short.status_code == 422 and "at least 8 characters" in short.get_data(as_text=True)
    differ = post(client, "/setup", {"code": account.setup_code(), "password": "a-long-password", "again": "other-pw"})
    assert "not the same" in differ.get_data(as_text=True)
    assert not account.is_set
    ok = post(client, "/setup", {"code": account.setup_code(), "password": "a-long-password",
                                 "again": "a-long-password"})
    assert ok.status_code == 302 and account.is_set
    assert client.get("/decks/").status_code == 200  # logged in by the setup
    assert not (account.instance / "setup-code").exists()
    stored = (account.instance / "admin.json").read_text()
    assert "a-long-password" not in stored and "pbkdf2:sha256:1000$" in stored  # only a hash is kept
    assert (account.instance / "admin.json").stat().st_mode & 0o077 == 0
    # once set, the setup page cannot be used again
    assert client.get("/setup").location.endswith("/login")


def test_password_slips_with_the_right_setup_code_do_not_lock_the_quizmaster_out(app: Flask) -> None:
    """Only a wrong setup code is a failed try (docs/security.md: the throttle counts only failures): a
    quizmaster who typed the code right but a password too short, too long or not the same twice is not
    told to wait (an audit: 2 wrong codes and 3 such slips locked the right code and password out)."""
    client = app.test_client()
    account = services(app).account
    for _ in range(2):
        assert post(client, "/setup", {"code": "nope", "password": "a-long-password",
                                       "again": "a-long-password"}).status_code == 401
    for password, again in (("short", "short"), ("a-long-password", "another-one"), ("x" * 300, "x" * 300)):
        slip = post(client, "/setup", {"code": account.setup_code(), "password": password, "again": again})
        assert slip.status_code == 422, slip.get_data(as_text=True)[:300]
    ok = post(client, "/setup", {"code": account.setup_code(), "password": "a-long-password",
                                 "again": "a-long-password"})
    assert ok.status_code == 302 and account.is_set


def test_wrong_setup_codes_still_lock_the_address_out(app: Flask) -> None:
    client = app.test_client()
    account = services(app).account
    for _ in range(5):
        assert post(client, "/setup", {"code": "nope", "password": "a-long-password",
                                       "again": "a-long-password"}).status_code == 401
    locked = post(client, "/setup", {"code": account.setup_code(), "password": "a-long-password",
                                     "again": "a-long-password"})
    assert locked.status_code == 429 and not account.is_set


def test_login_and_logout(setup_done: Flask) -> None:
    client = setup_done.test_client()
    assert client.get("/handsets/").location.startswith("/login?next=")
    bad = post(client, "/login", {"password": "wrong"})
    assert bad.status_code == 401 and "Wrong password" in bad.get_data(as_text=True)
    good = post(client, "/login?next=/handsets/", {"password": PASSWORD})
    assert good.status_code == 302 and good.location == "/handsets/"
    assert client.get("/handsets/").status_code == 200
    out = post(client, "/logout", page="/handsets/")
    assert out.status_code == 302
    assert client.get("/handsets/").status_code == 302


def test_login_never_redirects_off_the_site(setup_done: Flask) -> None:
    client = setup_done.test_client()
    response = post(client, "/login?next=//evil.example/x", {"password": PASSWORD})
    assert response.location == "/live/"


def test_repeated_wrong_passwords_lock_the_address_out(setup_done: Flask) -> None:
    client = setup_done.test_client()
    for _ in range(5):
        assert post(client, "/login", {"password": "guess"}).status_code == 401
    locked = post(client, "/login", {"password": PASSWORD})
    assert locked.status_code == 429 and "wait" in locked.get_data(as_text=True)
    assert client.get("/decks/").status_code == 302  # the right password during the lockout did not log in


def test_a_new_password_logs_other_sessions_out(admin: FlaskClient, setup_done: Flask) -> None:
    other = setup_done.test_client()
    assert post(other, "/login", {"password": PASSWORD}).status_code == 302
    wrong = post(admin, "/password", {"current": "nope", "password": "another-password", "again": "another-password"})
    assert wrong.status_code == 400
    ok = post(admin, "/password", {"current": PASSWORD, "password": "another-password", "again": "another-password"})
    assert ok.status_code == 302
    assert admin.get("/decks/").status_code == 200
    assert other.get("/decks/").status_code == 302
    assert services(setup_done).account.check("another-password")


def test_the_default_hash_is_scrypt(tmp_path: object) -> None:
    from pathlib import Path

    from web.account import Account

    account = Account(Path(str(tmp_path)))
    account.set_password("a-long-password")
    assert (account.instance / "admin.json").read_text().count("scrypt:") == 1
    assert account.check("a-long-password") and not account.check("a-long-passworD")
