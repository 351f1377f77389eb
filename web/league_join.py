"""The admin page's "Join a league" form (docs/league.md "Setting up a chain"): the league broker's
address and the one-time join code from the league box, handed to the installer's own code
(deploy/configure.py ``join_with_code``), which checks everything it can before it uses the code and
writes the bridge only after the league said yes. A refusal is shown with what was typed kept.

On an installed box (its ``quizbox-league-join.path`` unit is there) this page runs as user quizbox on a
read-only system: it writes a join request instead, which the root unit takes (``configure.py
--join-league-request``, the same code), and shows the outcome from the unit's result file: waiting,
joined, or the refusal's words. On a development machine (the demo, the tests) it joins directly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from appliance.errors import QuizboxError

bp = Blueprint("league_join", __name__)

BRIDGE = "etc/mosquitto/conf.d/quizbox-league.conf"
WATCH = "etc/systemd/system/quizbox-league-join.path"  # installed by deploy/install.sh


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


def _outcome(asked: str) -> dict[str, Any]:
    """The root unit's outcome for request ``asked``: its result, or state 'pending' until it is written."""
    from appliance.box.league_box import installer

    result = installer().read_join_result(_root())
    if result is not None and result.get("request") == asked:
        words = result.get("words")
        return {"state": str(result.get("state", "")),
                "words": [str(w) for w in words] if isinstance(words, list) else []}
    return {"state": "pending", "words": []}


def _page(status: int = 200, **values: Any) -> tuple[str, int]:
    page = {"address": "", "code": "", "error": "", "done": [], "outcome": None, "member": _member(), **values}
    return render_template("league/join.html", **page), status


@bp.route("/join-league", methods=["GET", "POST"])
def join() -> tuple[str, int] | Response:
    if request.method == "GET":
        asked = request.args.get("request", "")
        return _page(outcome=_outcome(asked) if asked else None)
    address, code = request.form.get("address", "").strip(), request.form.get("code", "").strip()
    if not address or not code:
        return _page(400, address=address, code=code,
                     error="Type the league broker's address and paste the join code the league box gave you.")
    from appliance.box.league_box import installer

    try:
        if (_root() / WATCH).exists():
            asked = installer().write_join_request(_root(), address, code)
            return redirect(url_for(".join", request=asked), 303)
        done = installer().join_with_code(_root(), address, code)
    except QuizboxError as exc:
        return _page(400, address=address, code=code, error=str(exc))
    except OSError as exc:
        return _page(400, address=address, code=code,
                     error=f"the join request could not be written ({exc.strerror}); nothing was changed")
    return _page(address=address, done=done)
