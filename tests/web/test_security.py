"""Walk the URL map: every admin route needs the login, every state-changing request a valid CSRF token."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import token
from web.pages import is_public

SAMPLES = {"deck_id": "est-x", "card_id": "c1", "handset_id": "hs-1", "action": "accept", "fmt": "csv",
           "game_id": 1, "filename": "style.css", "night_id": 1, "sheet_id": 1,
           "ref": "0" * 64 + ".png", "plan_id": "p1"}


def routes(app: Flask) -> list[tuple[str, str, str]]:
    """(endpoint, url, method) for every rule and method of the app."""
    out = []
    for rule in app.url_map.iter_rules():
        url = rule.build({k: SAMPLES[k] for k in rule.arguments})
        assert url is not None
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((rule.endpoint, url[1], method))
    return out


def test_every_admin_route_needs_the_login(setup_done: Flask) -> None:
    client = setup_done.test_client()
    csrf = token(client)  # a valid token of this (logged out) session, so only the login is missing
    admin_routes = [r for r in routes(setup_done) if not is_public(r[0])]
    assert len(admin_routes) >= 25
    for endpoint, url, method in admin_routes:
        if method == "GET":
            response = client.get(url)
            assert response.status_code == 302, (endpoint, url)
            assert response.location.startswith("/login"), (endpoint, url)
        else:
            response = client.open(url, method=method, data={"csrf_token": csrf})
            assert response.status_code == 401, (endpoint, url, method)


def test_public_routes_are_only_login_setup_static_and_the_phone_pages(app: Flask) -> None:
    public = sorted({endpoint for endpoint, _, _ in routes(app) if is_public(endpoint)})
    assert public == ["auth.login", "auth.setup", "phone.answer", "phone.confirm_leave", "phone.join",
                      "phone.join_team", "phone.leave", "phone.panel", "phone.picture", "phone.play",
                      "phone.retake_seat", "static", "tv.board", "tv.page", "tv.version"]
    # tv: the public board (web/tv.py); phone.picture: a seated phone's own check (web/phone.py)


def test_every_state_changing_request_needs_a_valid_csrf_token(admin: FlaskClient, app: Flask) -> None:
    changing = [r for r in routes(app) if r[2] not in ("GET",)]
    assert len(changing) >= 15
    for endpoint, url, method in changing:
        missing = admin.open(url, method=method, data={})
        assert missing.status_code == 400, (endpoint, url, method)
        assert "Form expired" in missing.get_data(as_text=True)
        forged = admin.open(url, method=method, data={"csrf_token": "forged." + "x" * 40})
        assert forged.status_code == 400, (endpoint, url, method)
    assert admin.get("/decks/").status_code == 200  # still logged in: the refusals changed nothing


def test_a_token_from_another_session_is_refused(admin: FlaskClient, app: Flask) -> None:
    stranger = app.test_client()
    foreign = token(stranger)
    response = admin.post("/live/command", data={"cmd": "end", "csrf_token": foreign})
    assert response.status_code == 400


def test_security_headers_and_cookie_flags(admin: FlaskClient, app: Flask) -> None:
    page = admin.get("/decks/")
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    fresh = app.test_client()
    response = fresh.get("/login")
    cookie = response.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
