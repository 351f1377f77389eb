"""Phone handsets: join from the board's QR code, then play with the same prompts as a hardware handset.

Push is short polling: the page asks ``/phone/panel?v=N`` every second and gets 204 while nothing
changed. Each poll is a short request, so no waitress thread is held between polls: 16 phones polling
once a second are 16 short requests a second, and the admin pages never wait behind them (Server-Sent
Events would hold one thread per open phone for as long as it is open). A phone's own answer is sent
with ``fetch`` and answered with its new screen at once, so only other people's moves wait for a poll.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from firmware import protocol
from web.phoneforms import data_from_form
from web.phones import PhoneHandset, PhoneRefused, PhoneRemoved, PhonesFull
from web.phoneview import controls, private_lines
from web.services import services

bp = Blueprint("phone", __name__)


def _phone() -> PhoneHandset | None:
    """This browser's phone handset (its id is in the signed session cookie), or None."""
    handset_id, name = session.get("phone"), session.get("phone_name")
    if not isinstance(handset_id, str) or not isinstance(name, str):
        return None
    try:
        return services().phones.resume(handset_id, name)
    except (PhoneRemoved, PhonesFull, protocol.ProtocolError):
        session.pop("phone", None)
        session.pop("phone_name", None)
        return None


def _screen(phone: PhoneHandset) -> dict[str, Any]:
    """The phone's screen with the controls its prompt offers and the player's own facts."""
    screen = phone.screen()
    return {**screen, "controls": controls(screen["prompt"]), "private": private_lines(screen["prompt"])}


def _clean_name(text: str) -> str:
    name = " ".join(text.split())
    if not name:
        raise ValueError("Type your name (or your team's).")
    if len(name) > protocol.MAX_NAME:
        raise ValueError(f"At most {protocol.MAX_NAME} characters, please.")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("Letters, digits and spaces only, please.")
    return name


@bp.route("/join", methods=["GET", "POST"])
def join() -> str | BaseResponse | tuple[str, int]:
    if _phone() is not None:
        return redirect(url_for("phone.play"))
    error = None
    if request.method == "POST":
        try:
            name = _clean_name(request.form.get("name", ""))
            if not services().joins.allow(request.remote_addr or "?"):
                raise ValueError("Too many joins from this phone; wait a few minutes.")
            phone = services().phones.join(name, request.remote_addr or "?")
        except ValueError as exc:
            error = str(exc)
        except PhonesFull:
            error = "Every phone place is taken. Ask the quizmaster for a handset."
        else:
            session.permanent = True
            session["phone"], session["phone_name"] = phone.id, phone.name
            phone.polled()
            return redirect(url_for("phone.play"))
    return render_template("phone/join.html", error=error), (400 if error else 200)


@bp.get("/phone")
def play() -> str | BaseResponse:
    phone = _phone()
    if phone is None:
        return redirect(url_for("phone.join"))
    phone.polled()
    return render_template("phone/play.html", p=_screen(phone), poll_ms=current_app.config["PHONE_POLL_MS"])


@bp.get("/phone/panel")
def panel() -> str | Response:
    phone = _phone()
    if phone is None:
        return Response("gone", status=410)
    battery = request.args.get("battery", "")
    phone.polled(int(battery) if battery.isdigit() and int(battery) <= 100 else None)
    screen = _screen(phone)
    if request.args.get("v") == str(screen["version"]):
        return Response(status=204)
    return render_template("phone/panel.html", p=screen)


@bp.post("/phone/answer")
def answer() -> str | BaseResponse | tuple[str, int]:
    phone = _phone()
    if phone is None:
        return redirect(url_for("phone.join"))
    prompt_id = request.form.get("prompt", "")
    prompt = phone.screen()["prompt"]
    status = 200
    try:
        if not prompt or prompt.get("id") != prompt_id:
            raise PhoneRefused("that screen is old; look again")
        phone.submit(prompt_id, data_from_form(prompt, request.form))
    except (PhoneRefused, ValueError) as exc:
        phone.refuse(str(exc), prompt.get("id") if prompt else None)  # shown on the screen now on the phone
        status = 400
    if request.headers.get("X-Requested-With") == "fetch":
        return render_template("phone/panel.html", p=_screen(phone)), status
    return redirect(url_for("phone.play"))


@bp.post("/phone/leave")
def leave() -> BaseResponse:
    phone = _phone()
    if phone is not None:
        services().phones.leave(phone.id)
    session.pop("phone", None)
    session.pop("phone_name", None)
    return redirect(url_for("phone.join"))
