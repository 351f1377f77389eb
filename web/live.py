"""The live page: the TV's picture, the game's state for the quizmaster and the controls.

Everything shown comes from what the appliance publishes for the TV and the admin (``board``,
``admin/state``); those never hold a player's secret, so nothing here can show one before the game
reveals it. The page refreshes itself by short polling (``/live/panel?v=N`` answers 204 while nothing
changed), which holds no server thread between polls; a running clock counts down in the page between
board changes. :mod:`web.standings` reads each game's view (points, whose move, what *next* does).
"""

from __future__ import annotations

import zlib
from typing import Any

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from appliance.box.tv import join_info as appliance_join_info
from web import results, standings
from web.catalogue import GAMES
from web.link import LinkError
from web.mirror import board_png
from web.restore import box_health
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
    # the buzzer round's own (appliance/flows/buzzer.py COMMANDS), with keyboard shortcuts on the page
    "arm": "Arm the buzzers",
    "right": "Right",
    "wrong": "Wrong",
    "close": "Close the question",
}

BUZZER_CONTROLS: tuple[tuple[str, str, str], ...] = (
    ("arm", "Arm (A)", "a"),
    ("right", "Right (R)", "r"),
    ("wrong", "Wrong (W)", "w"),
    ("next", "Next question (N)", "n"),
    ("close", "Close (C)", "c"),
)
"""The buzzer round's Live controls: command, label, shortcut key (web/static/live.js)."""


def join_info() -> dict[str, str]:
    """How phones join, as the TV shows it (appliance/box/app.py gives the TV the same): the box's mDNS name
    and the web port, unless ``JOIN_URL``/``JOIN_ADDRESS`` in web.cfg say otherwise (a box without mDNS)."""
    config = current_app.config
    return appliance_join_info(str(config["QUIZBOX_BOX"]), int(config["WEB_PORT"]),
                               str(config.get("JOIN_URL") or ""), str(config.get("JOIN_ADDRESS") or ""))


def _game_name(game: Any) -> str:
    known = GAMES.get(str(game))
    return known.name if known is not None else str(game or "")


def state() -> dict[str, Any]:
    link = services().link
    health = box_health()
    board = link.board() or {}
    admin = link.admin_state() or {}
    view = board.get("view") if isinstance(board.get("view"), dict) else None
    seats = [str(p) for p in board.get("seats", []) if isinstance(p, str)]
    standing = standings.read(board.get("game"), view, seats)
    return {
        # the box's parts and recovery report change the panel too (web/restore.py reads them)
        "version": _version(link.version(), health),
        "online": link.appliance_online(),
        "health": health["problems"],
        "recovery": health["recovery"],
        "board": board,
        "admin": admin,
        "scene": board.get("scene", "lobby"),
        "game": board.get("game"),
        "game_name": _game_name(board.get("game")),
        "paused": bool(board.get("paused")),
        "can_advance": bool(board.get("can_advance")),
        "remaining": link.remaining(),
        "view": view,
        "winners": results.winners(view),
        "points_name": standing.points_name,
        "points": standing.points,
        "turn": standing.turn,
        "step": standing.step or "Next",
        "last": admin.get("last") if isinstance(admin.get("last"), dict) else None,
        "message": board.get("message", ""),
    }


def _version(link_version: int, health: dict[str, Any]) -> str:
    """The panel's version: the link's, plus the box's health when it has something to say."""
    if not health["problems"] and not health["recovery"]:
        return str(link_version)
    return f"{link_version}-{zlib.crc32(repr(health).encode())}"


@bp.get("/")
def page() -> str:
    return render_template("live/page.html", s=state(), controls=CONTROLS, buzzer=BUZZER_CONTROLS)


@bp.get("/panel")
def panel() -> str | Response:
    since = request.args.get("v", "")
    s = state()
    if since == str(s["version"]):
        return Response(status=204)  # the clock, if any, counts down in the page (live.js)
    return render_template("live/panel.html", s=s, controls=CONTROLS, buzzer=BUZZER_CONTROLS)


@bp.get("/board.png")
def board_image() -> Response:
    board = services().link.board()
    return Response(board_png({**(board or {}), "join": join_info()}), mimetype="image/png")


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
