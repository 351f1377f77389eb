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
from web import answercard, controls, results, standings
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
    "sound": "Play the sound again",
    "undo": "Undo last input",
    "finish": "Finish now and score",
    "end": "Abandon the game",
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
    scene = board.get("scene", "lobby")
    playing = scene == "playing"
    step = controls.next_step(board.get("game"), view, standing.step or "Next", bool(board.get("waiting")))
    phone_warnings = services().phones.warnings()
    return {
        # the box's parts and recovery report change the panel too (web/restore.py reads them)
        "version": _version(link.version(), health, phone_warnings),
        "phone_warnings": phone_warnings,  # phones turned away, and why (issue 30, 5)
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
        # a quiz night's round (or deciding tie-break card) held on its final screen until *next*
        "held": bool(board.get("held")),
        # a night in progress whose TV shows the lobby's join QR code (its controls are still the night's)
        "in_night": isinstance(board.get("night"), dict),
        "remaining": link.remaining(),
        "view": view,
        "winners": results.winners(view),
        "points_name": standing.points_name,
        "points": standing.points,
        # a game that is over waits for nobody (an abandoned game's view still names its last question)
        "turn": standing.turn if playing else "",
        "step": step.label if playing else "Next",
        "confirm_next": step.confirm if playing else "",
        "ending": controls.ending_text(board.get("ending")),
        "answer_card": answercard.read(services().store, admin) if playing else None,
        # the codes of seats whose handset is offline: in the admin state, never on the public board
        "seat_codes": admin.get("seat_codes") if isinstance(admin.get("seat_codes"), dict) else {},
        "last": admin.get("last") if isinstance(admin.get("last"), dict) else None,
        "undo": admin.get("undo") if isinstance(admin.get("undo"), dict) else None,
        "message": board.get("message", ""),
    }


def _state() -> dict[str, Any]:
    s = state()
    s["returning"] = _returning(s) if s["scene"] == "playing" else []
    return s


def _version(link_version: int, health: dict[str, Any], phone_warnings: list[str] | None = None) -> str:
    """The panel's version: the link's, plus the box's health and phones turned away when they say something."""
    if not health["problems"] and not health["recovery"] and not phone_warnings:
        return str(link_version)
    return f"{link_version}-{zlib.crc32(repr((health, phone_warnings)).encode())}"


@bp.get("/")
def page() -> str:
    return render_template("live/page.html", s=_state(), controls=CONTROLS, buzzer=BUZZER_CONTROLS)


@bp.get("/panel")
def panel() -> str | Response:
    since = request.args.get("v", "")
    s = _state()
    if since == str(s["version"]):
        return Response(status=204)  # the clock, if any, counts down in the page (live.js)
    return render_template("live/panel.html", s=s, controls=CONTROLS, buzzer=BUZZER_CONTROLS)


@bp.get("/board.png")
def board_image() -> Response:
    board = services().link.board()
    return Response(board_png({**(board or {}), "join": join_info()}), mimetype="image/png")


def _confirm_question(name: str) -> str:
    """What the quizmaster is asked before ``name`` runs: the endings always; Next while players are
    still answering (it cuts them off)."""
    if name in controls.ENDINGS:
        return controls.ENDINGS[name][1]
    if name == "next":
        return str(state()["confirm_next"])
    if name == "undo":
        last = (services().link.admin_state() or {}).get("undo")
        if isinstance(last, dict) and last.get("player"):
            return (f"{last['player']}'s last input ({last.get('kind')}) is taken back: {last['player']} answers "
                    "again, and the TV asks them to.")
    return ""


@bp.post("/command")
def command() -> BaseResponse:
    name = request.form.get("cmd", "")
    if name not in CONTROLS:
        flash(f"Unknown control {name!r}.")
        return redirect(url_for("live.page"))
    question = _confirm_question(name)
    if question and request.form.get("confirmed") != "yes":
        label = controls.ENDINGS[name][0] if name in controls.ENDINGS else state()["step"]
        if name == "undo":
            label = f"Take back {(services().link.admin_state() or {}).get('undo', {}).get('player')}'s last input"
        return Response(render_template("confirm.html", label=label, question=question, fields=[("cmd", name)],
                                        danger=name in ("end", "undo"), action=url_for("live.command"),
                                        back=url_for("live.page")), mimetype="text/html")
    try:
        result = services().link.command({"cmd": name}, timeout=float(current_app.config["COMMAND_TIMEOUT"]))
    except LinkError as exc:
        flash(str(exc))
    else:
        flash(f"{CONTROLS[name]}: {'done' if result.ok else 'refused'}{': ' + result.msg if not result.ok else ''}")
    return redirect(url_for("live.page"))


def _returning(s: dict[str, Any]) -> list[dict[str, str]]:
    """Players who seem to be back on another handset: a seat whose handset is offline (it has a seat
    code) and an unseated handset named like the player ("Chloe-2" joining while Chloe's seat waits).
    The quizmaster gives the seat with one confirmed press (the player can also type the code)."""
    players = [p for p in s["board"].get("players", []) if isinstance(p, dict)]
    free = [p for p in players if not p.get("seated") and p.get("online")]
    out = []
    for player in s["seat_codes"]:
        for handset in free:
            name = str(handset.get("name", ""))
            if name == player or name.rsplit("-", 1)[0] == player:
                out.append({"player": str(player), "handset": str(handset.get("handset")), "name": name})
    return out


@bp.get("/seats")
def seats() -> str:
    """Seats belong to players: move one to another handset or phone (a player whose phone died, a
    handset with a flat battery), mid-question or mid-hand; nothing they entered is lost."""
    s = state()
    handsets = [h for h in s["admin"].get("handsets", []) if isinstance(h, dict) and h.get("accepted")]
    players = {str(p.get("handset")): p for p in s["board"].get("players", []) if isinstance(p, dict)}
    seated = {hid for hid, p in players.items() if p.get("seated")}
    holders = {str(p.get("name")): hid for hid, p in players.items() if p.get("seated")}
    rows = []
    for player in s["board"].get("seats", []):
        hid = holders.get(str(player), "")
        handset = next((h for h in handsets if h.get("id") == hid), None)
        rows.append({"player": player, "handset": handset, "code": s["seat_codes"].get(player)})
    free = [h for h in handsets if h.get("id") not in seated]
    return render_template("live/seats.html", s=s, rows=rows, free=free)


@bp.post("/seats")
def move_seat() -> BaseResponse:
    player, handset = request.form.get("player", ""), request.form.get("handset", "")
    try:
        result = services().link.command({"cmd": "seat", "player": player, "handset": handset},
                                         timeout=float(current_app.config["COMMAND_TIMEOUT"]))
    except LinkError as exc:
        flash(str(exc))
    else:
        flash(result.msg if result.ok else f"Move seat: refused: {result.msg}")
    return redirect(url_for("live.page" if request.form.get("back") == "live" else "live.seats"))
