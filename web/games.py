"""Games: set one up (game, options, seats clockwise with their handsets, deck and card filters) and start
it; the history of games with results, exported as CSV."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from appliance.decks.model import CATEGORIES, DIFFICULTIES
from firmware import protocol
from web import results
from web.boxsettings import answer_seconds
from web.catalogue import GAMES, OptionProblem, games, options_from_form
from web.link import LinkError
from web.phones import PHONE_FIRMWARE
from web.services import services

bp = Blueprint("games", __name__, url_prefix="/games")

MAX_SEAT_ROWS = 256
"""The most seat rows a set-up reads: a buzzer round or a night seats up to 256 (rules.md The room 1)."""

MIN_SEAT_ROWS = 4


def seat_rows(form: Mapping[str, str], handsets: Sequence[object]) -> int:
    """How many seat rows the page shows: one per handset at the table (a seat needs its own handset), at
    least the rows already filled in, never fewer than four nor more than :data:`MAX_SEAT_ROWS`."""
    filled = max((i + 1 for i in range(MAX_SEAT_ROWS) if form.get(f"player-{i}") or form.get(f"handset-{i}")),
                 default=0)
    return min(MAX_SEAT_ROWS, max(MIN_SEAT_ROWS, len(handsets), filled))


class SetupProblem(ValueError):
    pass


def _handsets() -> list[dict[str, Any]]:
    """The handsets a seat can be given: accepted, and for a phone, one that holds its place on this
    server (a phone that left, or was gone long enough to lose its place, has nobody behind it)."""
    state = services().link.admin_state() or {}
    phones = services().phones
    return [h for h in state.get("handsets", []) if isinstance(h, dict) and h.get("accepted")
            and (h.get("firmware") != PHONE_FIRMWARE or phones.get(str(h.get("id"))) is not None)]


def _seats(form: Mapping[str, str]) -> list[dict[str, str]]:
    seats: list[dict[str, str]] = []
    known = {h["id"] for h in _handsets()}
    for i in range(MAX_SEAT_ROWS):
        player = form.get(f"player-{i}", "").strip()
        handset = form.get(f"handset-{i}", "").strip()
        if not player and not handset:
            continue
        if not handset:
            raise SetupProblem(f"Seat {i + 1} ({player}): choose a handset.")
        if not player:
            raise SetupProblem(f"Seat {i + 1}: type the player's or team's name.")
        if len(player) > protocol.MAX_NAME:
            raise SetupProblem(f"Seat {i + 1}: a name has at most {protocol.MAX_NAME} characters.")
        if handset not in known:
            raise SetupProblem(f"Seat {i + 1}: that handset is not at the table any more.")
        if any(s["player"] == player for s in seats):
            raise SetupProblem(f"{player!r} is seated twice; each seat needs its own name.")
        if any(s["handset"] == handset for s in seats):
            raise SetupProblem(f"Seat {i + 1} ({player}): that handset already has a seat.")
        seats.append({"player": player, "handset": handset})
    return seats


def _filters(form: Any) -> dict[str, Any]:
    filters: dict[str, Any] = {}
    categories = [c for c in form.getlist("category") if c in CATEGORIES]
    difficulties = [d for d in form.getlist("difficulty") if d in DIFFICULTIES]
    tags = [t for t in form.get("tags", "").replace(",", " ").lower().split() if t]
    if categories:
        filters["category"] = categories
    if difficulties:
        filters["difficulty"] = difficulties
    if form.get("family") == "on":
        filters["family"] = True
    if tags:
        filters["tags"] = tags
    return filters


def start_command(form: Any) -> dict[str, Any]:
    catalogue = games(current_app.config["EXTRA_GAMES"])
    game = catalogue.get(form.get("game", ""))
    if game is None:
        raise SetupProblem("Choose a game.")
    seats = _seats(form)
    if not game.min_players <= len(seats) <= game.max_players:
        raise SetupProblem(f"{game.name} needs {game.min_players} to {game.max_players} seats; "
                           f"you set up {len(seats)}.")
    deck_id = form.get("deck", "")
    deck = next((d for d in services().store.decks() if d["id"] == deck_id), None)
    if deck is None and not (game.id == "buzzer" and not deck_id):
        # the buzzer round needs no deck (docs/night.md): without one the box deals from its buzzer decks,
        # and the quizmaster may read their own questions
        raise SetupProblem("Choose a deck." if not deck_id else "That deck is gone: choose another.")
    if deck is not None and deck["type"] != game.deck_type:
        raise SetupProblem(f"{game.name} plays {game.deck_type} cards; {deck['name']!r} is an {deck['type']} deck.")
    if deck is not None and not deck["cards"]:
        raise SetupProblem(f"The deck {deck['name']!r} has no cards yet.")
    try:
        options = options_from_form(game, form, [s["player"] for s in seats])
    except OptionProblem as exc:
        raise SetupProblem(str(exc)) from None
    seconds = answer_seconds()  # the Settings page's answer time (rounds that judge by the clock only)
    if seconds and game.id in GAMES and game.id != "buzzer":
        options.setdefault("answer_seconds", seconds)
    command: dict[str, Any] = {"cmd": "start", "game": game.id, "options": options, "seats": seats}
    if deck is not None:
        command["deck"] = deck_id
    filters = _filters(form)
    if filters:
        command["filters"] = filters
    return command


@bp.route("/new", methods=["GET", "POST"])
def new() -> str | BaseResponse | tuple[str, int]:
    error = None
    form: Any = request.form
    if request.method == "POST":
        try:
            command = start_command(request.form)
            result = services().link.command(command, timeout=float(current_app.config["COMMAND_TIMEOUT"]))
        except (SetupProblem, LinkError) as exc:
            error = str(exc)
        else:
            if result.ok:
                flash("The game has started.")
                return redirect(url_for("live.page"))
            error = f"The box refused to start the game: {result.msg}"
    else:
        form = {f"player-{i}": h["name"] for i, h in enumerate(h for h in _handsets() if h.get("online"))}
        form |= {f"handset-{i}": h["id"] for i, h in enumerate(h for h in _handsets() if h.get("online"))}
    decks = [d for d in services().store.decks() if d["cards"]]
    handsets = _handsets()
    return render_template("games/new.html", form=form, error=error, games=games(current_app.config["EXTRA_GAMES"]),
                           handsets=handsets, decks=decks, seats=seat_rows(form, handsets), categories=CATEGORIES,
                           difficulties=DIFFICULTIES), (400 if error else 200)


@bp.get("/")
def history() -> str:
    stored = services().store.games(limit=int(current_app.config["HISTORY_LIMIT"]))
    return render_template("games/history.html", games=[results.summary(g) for g in stored])


@bp.get("/<int:game_id>")
def result(game_id: int) -> str:
    if game_id > 2 ** 63 - 1:  # beyond SQLite's integers: no such game (not a server error)
        abort(404)
    game = services().store.game(game_id)
    if game is None:
        abort(404)
    return render_template("games/result.html", g=results.summary(game))


def _csv(text: str, name: str) -> Response:
    return Response(results.csv_bytes(text), mimetype="text/csv",  # werkzeug adds the charset itself
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/history.csv")
def history_csv() -> Response:
    stored = services().store.games(limit=int(current_app.config["HISTORY_LIMIT"]))
    return _csv(results.to_csv(g for g in stored if g.status != "running"), "quizbox-games.csv")


@bp.get("/<int:game_id>.csv")
def result_csv(game_id: int) -> Response:
    game = services().store.game(game_id)
    if game is None:
        abort(404)
    return _csv(results.to_csv([game]), f"quizbox-game-{game_id}.csv")
