"""Handsets: who is at the table (online, battery, signal, firmware, seat) and accept, rename, identify,
remove. The list is the appliance's (``admin/state``); changes are admin commands to the hub."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from firmware import protocol
from web.link import LinkError
from web.live import join_info
from web.services import services

bp = Blueprint("handsets", __name__, url_prefix="/handsets")

ACTIONS = {"accept": "Accepted", "rename": "Renamed", "identify": "Flashing", "remove": "Removed", "team": "Done"}


def _rows() -> list[dict[str, Any]]:
    link = services().link
    admin = link.admin_state() or {}
    board = link.board() or {}
    seat_of = {p.get("handset"): p.get("name") for p in board.get("players", [])
               if isinstance(p, dict) and p.get("seated")}
    rows = []
    listed = [h for h in admin.get("handsets", []) if isinstance(h, dict)]
    name_of = {h.get("id"): h.get("name") for h in listed}
    for handset in listed:
        # rules.md room-6: a device playing for a team is listed under it, never as a seat of its own
        team = handset.get("team")
        rows.append({**handset, "seat": seat_of.get(handset.get("id"), ""),
                     "plays_for": name_of.get(team, team) if team else "",
                     "phone": services().phones.get(str(handset.get("id"))) is not None})
    return rows


def _pairing() -> list[dict[str, Any]]:
    """Handsets asking for a broker account (the box's own mosquitto with accounts): id, name and whether two
    devices claim the id. No code: the quizmaster types the one the handset's screen shows."""
    admin = services().link.admin_state() or {}
    asks = admin.get("pairing") or {}
    if not isinstance(asks, dict):
        return []
    return [{"id": str(hid), "name": ask.get("name") or "", "conflict": bool(ask.get("conflict")),
             "request": str(ask.get("request") or ""), "wait": int(ask.get("wait") or 0)}
            for hid, ask in asks.items() if isinstance(ask, dict)]


def _pairing_warnings() -> list[str]:
    warnings = (services().link.admin_state() or {}).get("pairing_warnings") or []
    listed = [str(w) for w in warnings if isinstance(w, str)] if isinstance(warnings, list) else []
    return listed + services().phones.warnings()  # phones turned away, and why


@bp.get("/")
def index() -> str:
    # how phones join as the TV shows it (quizbox.local), not the address this browser used
    return render_template("handsets/index.html", handsets=_rows(), pairing=_pairing(),
                           pairing_warnings=_pairing_warnings(), join=join_info())


@bp.route("/<handset_id>/remove", methods=["GET"])
def confirm_remove(handset_id: str) -> str:
    row = next((h for h in _rows() if h.get("id") == handset_id), None)
    if row is None:
        abort(404)
    return render_template("handsets/remove.html", h=row)


@bp.post("/<handset_id>/<action>")
def act(handset_id: str, action: str) -> BaseResponse:
    if action not in ACTIONS:
        abort(404)
    command: dict[str, Any] = {"cmd": action, "handset": handset_id}
    code = request.form.get("code", "").strip()
    if action == "accept" and code:  # a pairing request: the code the quizmaster typed from its screen
        command["code"] = code
        asked = request.form.get("request", "").strip()
        if asked:  # the very request this page showed: a newer one for the id is not accepted (issue 32)
            command["request"] = asked
    if action == "rename":
        name = request.form.get("name", "").strip()
        if not name or len(name) > protocol.MAX_NAME:
            flash(f"A name has 1 to {protocol.MAX_NAME} characters.")
            return redirect(url_for("handsets.index"))
        command["name"] = name
    if action == "team":  # rules.md room-6: plays on that team's seat; none chosen: on its own again
        command["team"] = request.form.get("team", "").strip()
    if action == "identify":
        phone = services().phones.get(handset_id)
        if phone is None:  # the protocol has no message that makes a handset of its own flash (protocol.md 15)
            flash("Only a phone handset can flash its screen: find this one by the name on its own screen.")
            return redirect(url_for("handsets.index"))
        phone.identify()  # a phone handset of this server flashes its page at once
    try:
        result = services().link.command(command, timeout=float(current_app.config["COMMAND_TIMEOUT"]))
    except LinkError as exc:
        flash(str(exc))
    else:
        if result.ok and action == "remove":
            services().phones.leave(handset_id, removed=True)
        flash(f"{ACTIONS[action]}." if result.ok else f"Refused: {result.msg}")
    return redirect(url_for("handsets.index"))
