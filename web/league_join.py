"""The admin page's "Join a league" form (docs/league.md "Setting up a chain"): the league broker's
address and the one-time join code from the league box, handed to the installer's own code
(deploy/configure.py ``join_with_code``), which checks everything it can before it uses the code and
writes the bridge only after the league said yes. A refusal is shown with what was typed kept."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, current_app, render_template, request

from appliance.errors import QuizboxError

bp = Blueprint("league_join", __name__)

BRIDGE = "etc/mosquitto/conf.d/quizbox-league.conf"


def _root() -> Path:
    """The installed system's root (a test's folder in the tests)."""
    return Path(current_app.config.get("QUIZBOX_ROOT", "/"))


def _member() -> str:
    """The league broker this box bridges to ('' when it is not a league member)."""
    try:
        text = (_root() / BRIDGE).read_text(encoding="utf-8")
    except OSError:
        return ""
    return next((line.split(None, 1)[1] for line in text.splitlines() if line.startswith("address ")), "")


@bp.route("/join-league", methods=["GET", "POST"])
def join() -> tuple[str, int] | str:
    address, code, error, done = "", "", "", []
    if request.method == "POST":
        address, code = request.form.get("address", "").strip(), request.form.get("code", "").strip()
        if not address or not code:
            error = "Type the league broker's address and paste the join code the league box gave you."
        else:
            from appliance.box.league_box import installer

            try:
                done = installer().join_with_code(_root(), address, code)
            except QuizboxError as exc:
                error = str(exc)
        if error:
            return render_template("league/join.html", address=address, code=code, error=error,
                                   member=_member(), done=[]), 400
    return render_template("league/join.html", address=address, code="" if done else code, error=error,
                           member=_member(), done=done)
