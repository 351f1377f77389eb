"""Phone handsets: join from the board's QR code, then play with the same prompts as a hardware handset.

Phones are pushed, not polled (issue 30). The page opens a Server-Sent Events stream, ``/phone/push``
(web/push.py): each change of the phone's screen (a new prompt, an ack, "Buzz now!") is one event that
carries the new screen, rendered here by :func:`pushed_panel` as ``/phone/panel`` renders it, so the page
shows it without a request of its own (a fetch of ``/phone/panel?v=N`` took a round trip and a worker
thread per phone: 40 phones queued for 4 threads, docs/performance.md). The stream is kept by
waitress's event loop, not a worker thread (a streaming Flask response would hold one of the few
threads per open phone), so 40 open phones cost 40 sockets and no thread. Why SSE rather than the other
channels the issue allows (docs/performance.md, "Phones are pushed"):

* MQTT over WebSockets with the phone's own broker account would open the broker to the guest Wi-Fi and
  put a broker password in every browser; the handset core that checks a phone's inputs runs here
  (web/phones.py), so the phone would still need this server, and mosquitto has no per-address bound;
* a WebSocket needs a library and a listener outside waitress (or a thread per socket), for a channel
  that only ever goes one way: the phone's answers are ordinary POSTs with their CSRF token;
* SSE rides on the same port, origin and cookie as the page, inside web/connections.py's bounds, and
  the browser reconnects a dropped stream by itself (``retry``).

When the stream is down (a proxy that buffers it, a browser without EventSource, the stream refused),
the page polls every ``PHONE_POLL_MS`` as before and opens the stream again; while it is up it still
polls, rarely (``PHONE_PUSHED_POLL_MS``), for what the stream does not carry (the box's heartbeat,
seats to take back). A phone's own answer is sent with ``fetch`` and answered with its new screen.

Every screen carries the web server's clock (``X-Quizbox-Clock``, ms, the phone handset core's clock),
from which the page keeps its offset (min-RTT, as appliance/edge/clocksync.py does for handsets); a
buzz is sent with the tap's time on that clock (``pressed``), so a phone's buzz carries its press time
as a handset's does and the hub orders it by when it was pressed, not when it arrived.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from flask_wtf.csrf import generate_csrf  # type: ignore[import-untyped]
from werkzeug.wrappers import Response as BaseResponse

from firmware import protocol
from web.link import LinkError
from web.media import media_store
from web.names import clean_name
from web.phoneforms import data_from_form, player_words
from web.phones import AddressFull, PhoneHandset, PhoneRefused, PhoneRemoved, PhonesFull
from web.phoneview import controls, private_lines
from web.push import PUSH_PATH
from web.services import services

bp = Blueprint("phone", __name__)
PANEL_PATH = "/phone/panel"
PANEL_TEMPLATE = "phone/panel.html"  # a phone's screen: fetched (/phone/panel), answered, and pushed alike
TOKEN_REUSE_SECONDS = 600.0
"""A pushed screen's CSRF token is signed afresh at most this often per phone; it is good for
WTF_CSRF_TIME_LIMIT (12 h, web/settings.py) from its signing, so a reused one is never near its end."""


def _phone() -> PhoneHandset | None:
    """This browser's phone handset (its id is in the signed session cookie), or None. A phone whose
    place lapsed and finds no place again is told why on the join page, as a join is."""
    handset_id, name = session.get("phone"), session.get("phone_name")
    if not isinstance(handset_id, str) or not isinstance(name, str):
        return None
    try:
        phone = services().phones.resume(handset_id, name, request.remote_addr or "?")
    except PhonesFull as exc:
        flash(f"Your phone was away and its place was given back. {_full_words(exc)}")
    except (PhoneRemoved, protocol.ProtocolError):
        pass
    else:
        _keep_csrf_key(phone)
        return phone
    session.pop("phone", None)
    session.pop("phone_name", None)
    return None


def _keep_csrf_key(phone: PhoneHandset) -> None:
    """Keep this cookie's CSRF key on its phone: a screen pushed to the page (:func:`pushed_panel`, outside
    any request of the phone's) signs its forms' tokens with it, so they pass as the page's own."""
    field = _csrf_field()
    if field not in session:
        generate_csrf()  # puts a key in the session (a token is signed only then, not on every request)
    phone.csrf_key = session.get(field)


def _csrf_field() -> str:
    """Where flask_wtf keeps a session's CSRF key (and a request's token on ``g``)."""
    return str(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))


def pushed_panel(app: Flask, handset_id: str) -> str | None:
    """The screen of phone ``handset_id`` for its push stream (web/push.py): what ``/phone/panel`` would
    render for its cookie, or None when it cannot be made here (the phone is gone, or has not asked for a
    screen since this server started: its page fetches it instead).

    The same template, rendered in the app's context alone: the request context ``/phone/panel`` has (an
    environ, a session opened, the template's context processors) was half of a pushed screen's cost, and
    the box renders 40 of them one after the other when a question goes out (bench/phones.py). The panel
    needs of a request only its URLs (built here as at the site's root, as the page's own requests are)
    and the CSRF token of the phone's cookie (signed in a request context, once in a while)."""
    with app.app_context():
        phone = services().phones.get(handset_id)
        key = phone.csrf_key if phone is not None else None
        if phone is None or key is None:
            return None
        now = time.monotonic()
        made = phone.csrf_token
        if made is None or made[0] != key or now - made[2] > TOKEN_REUSE_SECONDS:
            made = (key, _signed_token(app, key), now)  # signing is costly: once in a while
            phone.csrf_token = made
        setattr(g, _csrf_field(), made[1])  # what the form's csrf() takes (flask_wtf keeps a request's token on g)
        urls = app.url_map.bind("localhost")
        return app.jinja_env.get_template(PANEL_TEMPLATE).render(
            p=_screen(phone), url_for=lambda endpoint, **values: urls.build(endpoint, values))


def _signed_token(app: Flask, key: str) -> str:
    """A CSRF token for the session whose key is ``key``, as flask_wtf signs one in that session's request."""
    with app.test_request_context(PANEL_PATH):
        session[_csrf_field()] = key
        return str(generate_csrf())


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


def _team(phone: PhoneHandset) -> dict[str, str]:
    """rules.md room-6, from the admin state: the team this phone plays for (``for``: its handset's name),
    or, when it plays on its own, its team code (``code``: a second phone joins the team with it)."""
    admin = services().link.admin_state() or {}
    listed = admin.get("handsets")
    rows = {str(h.get("id")): h for h in listed if isinstance(h, dict)} if isinstance(listed, list) else {}
    me = rows.get(phone.id)
    if me is None:
        return {}
    team = me.get("team")
    if isinstance(team, str) and team:
        return {"for": str(rows.get(team, {}).get("name") or team)}
    code = me.get("code")
    return {"code": code} if isinstance(code, str) and code else {}


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
    team = _team(phone)
    version = f"{version}-team-{team.get('for') or team.get('code')}" if team else version
    # a seated phone, or another device of a seated team (room-6), sees the card's picture
    picture = _picture(board) if seated_as is not None or team.get("for") else None
    version = f"{version}-picture-{picture[:16]}" if picture else version
    return {**screen, "version": version, "retake": retake, "box_answering": answering, "seat": seat, "team": team,
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
    if phone is None or _picture(board) != ref or (_seated_as(board, phone) is None and not _team(phone).get("for")):
        abort(404)
    path = media_store().path(ref)
    if path is None:
        abort(404)
    return send_file(path, max_age=3600)  # a reference names its content


def _clean_name(text: str, taken: Iterable[str] = ()) -> str:
    return clean_name(text, taken)  # web/names.py: what the TV can draw, not a name at the table


def _names_at_table() -> list[str]:
    """The names of the handsets and phones online at the table (the appliance's list): an offline one's
    team may come back under its name on a new phone, to take its seat back with the seat code."""
    handsets = (services().link.admin_state() or {}).get("handsets") or []
    return [str(h.get("name")) for h in handsets if isinstance(h, dict) and h.get("name") and h.get("online")]


@bp.route("/join", methods=["GET", "POST"])
def join() -> str | BaseResponse | tuple[str, int]:
    if _phone() is not None:
        return redirect(url_for("phone.play"))
    error = None
    if request.method == "POST":
        try:
            name = _clean_name(request.form.get("name", ""), _names_at_table())
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
    hub = services().push
    # served by waitress's channel, not a view (web/push.py)
    push_url = f"{PUSH_PATH}?phone={phone.id}&token={hub.token(phone.id)}" if hub is not None else ""
    return render_template("phone/play.html", p=_screen(phone), poll_ms=current_app.config["PHONE_POLL_MS"],
                           pushed_poll_ms=current_app.config["PHONE_PUSHED_POLL_MS"], push_url=push_url)


def _clocked(body: str | Response, phone: PhoneHandset, status: int = 200) -> Response:
    """A response with the web server's clock for the page's clock offset (a buzz's press time)."""
    response = make_response(body, status)
    response.headers["X-Quizbox-Clock"] = str(phone.core.clock_ms())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get(PANEL_PATH)
def panel() -> str | Response:
    phone = _phone()
    if phone is None:
        return Response("gone", status=410)
    battery = request.args.get("battery", "")
    phone.polled(int(battery) if battery.isdigit() and int(battery) <= 100 else None)
    screen = _screen(phone)
    if request.args.get("v") == str(screen["version"]):
        return _clocked(Response(status=204), phone, 204)
    return _clocked(render_template(PANEL_TEMPLATE, p=screen), phone)


def _pressed() -> int | None:
    """The page's stamp of a buzz, on the web server's clock (whole ms), or None."""
    text = request.form.get("pressed", "").strip()
    return int(text) if text.isdigit() and len(text) <= 15 else None


@bp.post("/phone/answer")
def answer() -> str | BaseResponse | tuple[str, int]:
    phone = _phone()
    if phone is None:
        return redirect(url_for("phone.join"))
    prompt_id = request.form.get("prompt", "")
    prompt = phone.screen()["prompt"]
    status, once = 200, ""
    try:
        if not prompt or prompt.get("id") != prompt_id:
            raise PhoneRefused("that screen is old; look again")
        phone.submit(prompt_id, data_from_form(prompt, request.form), pressed=_pressed())
    except (PhoneRefused, ValueError) as exc:
        words, status = player_words(str(exc)), 400
        if prompt and prompt.get("id") == prompt_id and controls(prompt)["kind"] not in ("", protocol.INFO):
            phone.refuse(words, prompt_id)  # on the form still on screen, in the form's words, until the next try
        else:
            # the screen moved on (a new prompt, or one with nothing to answer): said in this answer only,
            # never kept on the new screen, which may stay up a long while (issue 31)
            once = words
    if request.headers.get("X-Requested-With") == "fetch":
        screen = _screen(phone)
        if once:
            screen["notice"] = once
        return _clocked(render_template(PANEL_TEMPLATE, p=screen), phone, status)
    if once:
        flash(once)
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
            flash(f"You are back in the seat of {player}." if result.ok else f"Seat code: {result.msg}")
    return redirect(url_for("phone.play"))


@bp.post("/phone/team")
def join_team() -> BaseResponse:
    """This phone plays on its team's seat from now on (rules.md room-6): the team code its team's first
    phone shows (or the quizmaster reads out) joins it; this phone can only ever ask for itself."""
    phone = _phone()
    if phone is None:
        return redirect(url_for("phone.join"))
    code = "".join(request.form.get("team_code", "").split())
    if not services().joins.allow(request.remote_addr or "?"):
        flash("Too many tries; wait a few minutes.")
    elif not code.isdigit():
        flash("Team code: type the digits your team's first phone shows.")
    else:
        try:
            result = services().link.command({"cmd": "team", "handset": phone.id, "code": code},
                                             timeout=float(current_app.config["COMMAND_TIMEOUT"]))
        except LinkError as exc:
            flash(str(exc))
        else:
            flash(f"{result.msg}." if result.ok else f"Team code: {result.msg}")
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
