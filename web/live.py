"""The live page: the TV's picture, the game's state for the quizmaster and the controls.

Everything shown comes from what the appliance publishes for the TV and the admin (``board``,
``admin/state``); those never hold a player's secret, so nothing here can show one before the game
reveals it. The page refreshes itself by short polling (``/live/panel?v=N`` answers 204 while nothing
changed), which holds no server thread between polls.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from web import results
from web.link import LinkError
from web.mirror import board_png
from web.services import services

bp = Blueprint("live", __name__, url_prefix="/live")

CONTROLS: dict[str, str] = {
    "next": "Next",
    "pause": "Pause",
    "resume": "Resume",
    "skip": "Skip this card",
    "undo": "Undo last input",
    "end": "End the game",
    "lobby": "Back to the lobby",
}


def state() -> dict[str, Any]:
    link = services().link
    board = link.board() or {}
    admin = link.admin_state() or {}
    view = board.get("view") if isinstance(board.get("view"), dict) else None
    players = [p["name"] for p in board.get("players", []) if isinstance(p, dict) and p.get("seated")]
    kind, numbers = results.points(view, players)
    return {
        "version": link.version(),
        "online": link.appliance_online(),
        "board": board,
        "admin": admin,
        "scene": board.get("scene", "lobby"),
        "game": board.get("game"),
        "paused": bool(board.get("paused")),
        "can_advance": bool(board.get("can_advance")),
        "remaining": link.remaining(),
        "view": view,
        "winners": results.winners(view),
        "points_name": kind,
        "points": numbers,
        "turn": _turn(view),
        "last": admin.get("last") if isinstance(admin.get("last"), dict) else None,
        "message": board.get("message", ""),
    }


def _turn(view: dict[str, Any] | None) -> str:
    """Whose move it is, when the game's public view says so (keys the views use)."""
    if not view:
        return ""
    for key in ("to_act", "turn", "reader", "waiting_for"):
        value = view.get(key)
        if isinstance(value, str) and value:
            return f"{key.replace('_', ' ')}: {value}"
        if isinstance(value, list) and value:
            return f"{key.replace('_', ' ')}: {', '.join(str(v) for v in value)}"
    return ""


@bp.get("/")
def page() -> str:
    return render_template("live/page.html", s=state(), controls=CONTROLS)


@bp.get("/panel")
def panel() -> str | Response:
    since = request.args.get("v", "")
    s = state()
    if since == str(s["version"]) and s["remaining"] is None:
        return Response(status=204)
    return render_template("live/panel.html", s=s, controls=CONTROLS)


@bp.get("/board.png")
def board_image() -> Response:
    return Response(board_png(services().link.board()), mimetype="image/png")


@bp.post("/command")
def command() -> BaseResponse:
    name = request.form.get("cmd", "")
    if name not in CONTROLS:
        flash(f"Unknown control {name!r}.")
        return redirect(url_for("live.page"))
    try:
        result = services().link.command({"cmd": name}, timeout=float(current_app.config["COMMAND_TIMEOUT"]))
    except LinkError as exc:
        flash(str(exc))
    else:
        flash(f"{CONTROLS[name]}: {'done' if result.ok else 'refused'}{': ' + result.msg if not result.ok else ''}")
    return redirect(url_for("live.page"))
