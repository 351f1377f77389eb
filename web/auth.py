"""The one admin account: first-run setup (with the setup code), login (throttled per address and per
account, web/throttle.py), logout and a new password (both log every session out)."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from flask_limiter.errors import RateLimitExceeded
from werkzeug.wrappers import Response

from web.services import services
from web.throttle import DEVICE_COOKIE, per_account, per_client, retry_after

bp = Blueprint("auth", __name__)


@bp.errorhandler(RateLimitExceeded)
def _too_many(exc: RateLimitExceeded) -> tuple[str, int]:
    wait = retry_after()
    page = "auth/setup.html" if request.endpoint == "auth.setup" else "auth/login.html"
    error = f"Too many wrong tries: wait {wait:.0f} seconds, then try again."
    if page == "auth/login.html":
        error += (" Locked out by others' tries? Type the box code too (at the box: sudo cat "
                  "/var/lib/quizbox/web/box-code).")
    return render_template(page, error=error), 429


def _password_problem(password: str, again: str) -> str | None:
    least = int(current_app.config["MIN_PASSWORD"])
    if len(password) < least:
        return f"The password needs at least {least} characters."
    if len(password) > 200:
        return "The password is too long (at most 200 characters)."
    if password != again:
        return "The two passwords are not the same."
    return None


def _log_in() -> None:
    session.clear()  # a fresh session: nothing from before the login carries over
    session.permanent = True
    session["admin"] = services().account.stamp()


def _trusted(response: Response) -> Response:
    """Remember this device: its failed logins then count on their own (web/throttle.py)."""
    if not services().account.trusted(request.cookies.get(DEVICE_COOKIE)):
        response.set_cookie(DEVICE_COOKIE, services().account.trust(), max_age=400 * 86400, httponly=True,
                            samesite="Lax", secure=request.is_secure)
    return response


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("live.page")


@bp.route("/setup", methods=["GET", "POST"])
@per_client
@per_account
def setup() -> str | Response | tuple[str, int]:
    account = services().account
    if account.is_set:
        return redirect(url_for("auth.login"))
    error, status = None, 200
    if request.method == "POST":
        password, again = request.form.get("password", ""), request.form.get("again", "")
        if not account.setup_code_ok(request.form.get("code", "")):
            # 401: a failed try, counted by the throttle; a password slip after the right code is not (422)
            error, status = ("That setup code is wrong. It is printed where the box was started (in the "
                             "terminal of quizbox demo or quizbox web; on an installed box: sudo cat "
                             "/var/lib/quizbox/web/setup-code)."), 401
        else:
            error, status = _password_problem(password, again), 422
        if error is None:
            account.set_password(password)
            _log_in()
            flash("Password saved. You are logged in.")
            return _trusted(redirect(url_for("live.page")))
    else:
        account.setup_code()  # make sure the code exists for the person at the box to read
    return render_template("auth/setup.html", error=error), (status if error else 200)


@bp.route("/login", methods=["GET", "POST"])
@per_client
@per_account
def login() -> str | Response | tuple[str, int]:
    account = services().account
    if not account.is_set:
        return redirect(url_for("auth.setup"))
    error = None
    status = 200
    if request.method == "POST":
        if account.check(request.form.get("password", "")):
            if account.box_code_ok(request.form.get("box_code")):
                account.new_box_code()  # used once: the next lock-out needs the box's new one
            _log_in()
            return _trusted(redirect(_safe_next(request.args.get("next"))))
        error, status = "Wrong password.", 401
    return render_template("auth/login.html", error=error), status


@bp.post("/logout")
def logout() -> Response:
    services().account.revoke()  # every session, a copied cookie too
    session.clear()
    flash("Logged out.")
    return redirect(url_for("auth.login"))


@bp.route("/password", methods=["GET", "POST"])
def password() -> str | Response | tuple[str, int]:
    error = None
    if request.method == "POST":
        account = services().account
        if not account.check(request.form.get("current", "")):
            error = "The current password is wrong."
        else:
            error = _password_problem(request.form.get("password", ""), request.form.get("again", ""))
        if error is None:
            account.set_password(request.form["password"])  # counts the generation up: all sessions end
            _log_in()
            flash("New password saved. Other devices are logged out.")
            return redirect(url_for("live.page"))
    return render_template("auth/password.html", error=error), (400 if error else 200)
