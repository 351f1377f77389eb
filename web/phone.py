"""Phone handsets: join from the board's QR code, then play with the same prompts as a hardware handset.

Push is short polling: the page asks ``/phone/panel?v=N`` every second and gets 204 while nothing
changed. Each poll is a short request, so no waitress thread is held between polls: 16 phones polling
once a second are 16 short requests a second, and the admin pages never wait behind them (Server-Sent
Events would hold one thread per open phone for as long as it is open). A phone's own answer is sent
with ``fetch`` and answered with its new screen at once, so only other people's moves wait for a poll.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from firmware import protocol
from web.link import LinkError
from web.media import media_store
from web.phoneforms import data_from_form, player_words
from web.phones import AddressFull, PhoneHandset, PhoneRefused, PhoneRemoved, PhonesFull
from web.phoneview import controls, private_lines
from web.services import services

bp = Blueprint("phone", __name__)


def _phone() -> PhoneHandset | None:
    """This browser's phone handset (its id is in the signed session cookie), or None. A phone whose
    place lapsed and finds no place again is told why on the join page, as a join is."""
    handset_id, name = session.get("phone"), session.get("phone_name")
    if not isinstance(handset_id, str) or not isinstance(name, str):
        return None
    try:
        return services().phones.resume(handset_id, name, request.remote_addr or "?")
    except PhonesFull as exc:
        flash(f"Your phone was away and its place was given back. {_full_words(exc)}")
    except (PhoneRemoved, protocol.ProtocolError):
        pass
    session.pop("phone", None)
    session.pop("phone_name", None)
    return None


def _full_words(exc: PhonesFull) -> str:
    """Why a phone gets no place, for the player."""
    if isinstance(exc, AddressFull):
        return (f"Your network address already holds its {services().phones.per_address} phone places. "
                "Play on one of those phones, or ask the quizmaster for a handset.")
    return "Every phone place is taken. Ask the quizmaster for a handset."


def _seated_as(board: dict[str, Any], phone: PhoneHandset) -> str | None:
    """The player whose seat this phone holds in the running game (the board's list of the table), or None."""
    players = board.get("players") if board.get("scene") == "playing" else None
    for entry in players if isinstance(players, list) else []:
        if isinstance(entry, dict) and entry.get("handset") == phone.id and entry.get("seated"):
            return str(entry.get("name", ""))
    return None


def _retake(board: dict[str, Any], seated_as: str | None) -> list[str]:
    """The seats this phone could take back with a seat code: while a game runs, this phone holds no
    seat, and a seat's handset is offline (the quizmaster gives that seat's code to its team)."""
    away = board.get("seats_away")
    if board.get("scene") != "playing" or not isinstance(away, list) or not away or seated_as is not None:
        return []
    return [str(name) for name in away]


def _screen(phone: PhoneHandset) -> dict[str, Any]:
    """The phone's screen with the controls its prompt offers and the player's own facts."""
    screen = phone.screen()
    board = services().link.board() or {}
    seated_as = _seated_as(board, phone)
    retake = _retake(board, seated_as)
    # another player's seat (the quizmaster moved it here, or a player took theirs back on a new phone)
    seat = seated_as if seated_as and seated_as != phone.name else None
    answering = services().link.appliance_online()  # the box's heartbeat is fresh (web/link.py)
    version = f"{screen['version']}-{'-'.join(retake)}" if retake else str(screen["version"])
    version = version if answering else f"{version}-silent"
    version = f"{version}-seat-{seat}" if seat else version
    picture = _picture(board) if seated_as is not None else None
    version = f"{version}-picture-{picture[:16]}" if picture else version
    return {**screen, "version": version, "retake": retake, "box_answering": answering, "seat": seat,
            "controls": controls(screen["prompt"]), "private": private_lines(screen["prompt"]),
            "picture": picture}


def _picture(board: dict[str, Any]) -> str | None:
    """The media reference of the picture on the TV now (the card on the table's), or None."""
    media = board.get("media") if board.get("scene") == "playing" else None
    image = media.get("image") if isinstance(media, dict) else None
    return image if isinstance(image, str) and image else None


@bp.get("/phone/picture/<ref>")
def picture(ref: str) -> Response:
    """The picture on the TV, for a phone seated in the game (a team sharing one phone still sees it): only
    the card on the table's, only to a seated phone; anything else is 404 (a phone cannot browse media)."""
    phone = _phone()
    board = services().link.board() or {}
    if phone is None or _seated_as(board, phone) is None or _picture(board) != ref:
        abort(404)
    path = media_store().path(ref)
    if path is None:
        abort(404)
    return send_file(path, max_age=3600)  # a reference names its content


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
                raise ValueError("Too many phones joined from this network address lately; wait a few "
                                 "minutes, or ask the quizmaster for a handset.")
            phone = services().phones.join(name, request.remote_addr or "?")
        except ValueError as exc:
            error = str(exc)
        except PhonesFull as exc:
            error = _full_words(exc)
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
        # shown on the screen now on the phone, in the form's words
        phone.refuse(player_words(str(exc)), prompt.get("id") if prompt else None)
        status = 400
    if request.headers.get("X-Requested-With") == "fetch":
        return render_template("phone/panel.html", p=_screen(phone)), status
    return redirect(url_for("phone.play"))


@bp.post("/phone/seat")
def retake_seat() -> BaseResponse:
    """A player takes their seat back on this phone with the seat code the quizmaster gave them (their
    old handset or phone is offline); the box checks the code, this phone can only ever ask for itself."""
    phone = _phone()
    if phone is None:
        return redirect(url_for("phone.join"))
    player, code = request.form.get("player", ""), "".join(request.form.get("code", "").split())
    # the answer is a flash on the page, not a notice on the prompt: the phone's prompt may change
    # (the box sends the seat's screen) while the request is on its way
    if not services().joins.allow(request.remote_addr or "?"):
        flash("Too many tries; wait a few minutes.")
    elif not code.isdigit():
        flash("Seat code: type the 4 digits the quizmaster gave you.")
    else:
        try:
            result = services().link.command({"cmd": "seat", "player": player, "handset": phone.id, "code": code},
                                             timeout=float(current_app.config["COMMAND_TIMEOUT"]))
        except LinkError as exc:
            flash(str(exc))
        else:
            flash(f"You have {player}'s seat again." if result.ok else f"Seat code: {result.msg}")
    return redirect(url_for("phone.play"))


@bp.get("/phone/leave")
def confirm_leave() -> str | BaseResponse:
    phone = _phone()
    if phone is None:
        return redirect(url_for("phone.join"))
    return render_template("phone/leave.html", name=phone.name)


@bp.post("/phone/leave")
def leave() -> BaseResponse:
    phone = _phone()
    if request.form.get("confirmed") != "yes":  # leaving needs the confirmation page's own button
        return redirect(url_for("phone.confirm_leave"))
    if phone is not None:
        services().phones.leave(phone.id)
    session.pop("phone", None)
    session.pop("phone_name", None)
    return redirect(url_for("phone.join"))
