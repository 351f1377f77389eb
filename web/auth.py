"""The one admin account: first-run setup (with the setup code), login (throttled), logout, new password."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from web.services import services

bp = Blueprint("auth", __name__)


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


def _safe_next(target: str | None) -> str:
    if target and target.startswith("/") and not target.startswith("//") and not urlsplit(target).netloc:
        return target
    return url_for("live.page")


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> str | Response | tuple[str, int]:
    account = services().account
    if account.is_set:
        return redirect(url_for("auth.login"))
    error = None
    if request.method == "POST":
        address = request.remote_addr or "?"
        wait = services().logins.wait(address)
        if wait > 0:
            return render_template("auth/setup.html", error=f"Too many tries: wait {wait:.0f} seconds."), 429
        password, again = request.form.get("password", ""), request.form.get("again", "")
        if not account.setup_code_ok(request.form.get("code", "")):
            services().logins.failure(address)
            error = "That setup code is wrong. It is printed where the box was started (quizbox web)."
        else:
            error = _password_problem(password, again)
        if error is None:
            account.set_password(password)
            services().logins.success(address)
            _log_in()
            flash("Password saved. You are logged in.")
            return redirect(url_for("live.page"))
    else:
        account.setup_code()  # make sure the code exists for the person at the box to read
    return render_template("auth/setup.html", error=error), (400 if error else 200)


@bp.route("/login", methods=["GET", "POST"])
def login() -> str | Response | tuple[str, int]:
    account = services().account
    if not account.is_set:
        return redirect(url_for("auth.setup"))
    error = None
    status = 200
    if request.method == "POST":
        address = request.remote_addr or "?"
        wait = services().logins.wait(address)
        if wait > 0:
            error, status = f"Too many wrong passwords: wait {wait:.0f} seconds, then try again.", 429
        elif account.check(request.form.get("password", "")):
            services().logins.success(address)
            _log_in()
            return redirect(_safe_next(request.args.get("next")))
        else:
            services().logins.failure(address)
            error, status = "Wrong password.", 401
    return render_template("auth/login.html", error=error), status


@bp.post("/logout")
def logout() -> Response:
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
            account.set_password(request.form["password"])
            _log_in()
            flash("New password saved. Other devices are logged out.")
            return redirect(url_for("live.page"))
    return render_template("auth/password.html", error=error), (400 if error else 200)
