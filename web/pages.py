"""What every page shares: the login guard (default deny), security headers, error pages, the home page."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, redirect, render_template, request, session, url_for
from flask_wtf.csrf import CSRFError  # type: ignore[import-untyped]
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from web.services import services

PUBLIC_ENDPOINTS = frozenset({"static", "auth.login", "auth.setup"})
"""Endpoints anyone may open; every other endpoint needs the admin's login, except the phone pages."""
PUBLIC_BLUEPRINTS = frozenset({"phone", "tv"})  # tv: the public board only (web.tv)

CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
)


def is_public(endpoint: str | None) -> bool:
    if endpoint is None:
        return True  # no route matched: Flask answers 404 (or 405) without running a view
    return endpoint in PUBLIC_ENDPOINTS or endpoint.split(".", 1)[0] in PUBLIC_BLUEPRINTS


def logged_in() -> bool:
    return session.get("admin") == services().account.stamp() and services().account.is_set


def install(app: Flask) -> None:
    @app.before_request
    def guard() -> BaseResponse | None:
        if is_public(request.endpoint):
            return None
        if not services().account.is_set:
            return redirect(url_for("auth.setup"))
        if not logged_in():
            if request.method == "GET":
                return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
            return Response("Log in first.", status=401, mimetype="text/plain")
        return None

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if request.endpoint != "static":
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.context_processor
    def shared() -> dict[str, Any]:
        return {
            "box_name": app.config["QUIZBOX_NAME"],
            "admin": logged_in() if services().account.is_set else False,
            "appliance_online": services().link.appliance_online(),
        }

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError) -> tuple[str, int]:
        return render_template("error.html", title="Form expired",
                               text="This form is too old or was not sent by this site. Go back, reload the "
                                    "page and try again.", code=400), 400

    @app.errorhandler(413)
    def too_big(exc: HTTPException) -> tuple[str, int]:
        # the deck file's own limit, as the import form says it (the request may be a little bigger:
        # the form around the file)
        from appliance.decks import MAX_FILE_BYTES, MAX_ZIP_BYTES

        limit = MAX_FILE_BYTES // 1_000_000  # 5 MB, as decimal as the form says it
        zipped = MAX_ZIP_BYTES // (1024 * 1024)  # 60 MB
        return render_template("error.html", title="File too big",
                               text=f"A deck file is at most {limit} MB; a deck's zip with its pictures and "
                                    f"sounds at most {zipped} MB.", code=413), 413

    @app.errorhandler(500)
    def server_error(exc: Exception) -> tuple[str, int]:
        return render_template("error.html", title="Something went wrong",
                               text="The box could not show this page. Go back and try again; nothing was "
                                    "changed.", code=500), 500

    @app.get("/help")
    def help_page() -> str:
        return render_template("help.html")

    @app.errorhandler(404)
    def not_found(exc: HTTPException) -> tuple[str, int]:
        return render_template("error.html", title="Not found", text="There is no such page.", code=404), 404

    @app.get("/")
    def home() -> BaseResponse:
        return redirect(url_for("live.page"))
