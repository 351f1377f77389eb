"""Quiz night on the admin page: plan a night (its run-sheet), save the run-sheet to use again, start it;
during the night the standing, who sits each round, the rounds still to come (add, skip, move, reseat),
finish a round now or abandon it, an interval, the tie-break; afterwards each night's results per round
and in total, as CSV and as an A4 page to pin on the wall.

The box runs the night (appliance/session/night.py): every change here is an admin command
(``{"cmd": "night_..."}``) the box checks and refuses with a reason; the night's state comes back on the
board (``board["night"]``). Results are read from the store: each night rebuilt from its own log.
"""

from __future__ import annotations

import csv
import io
import json
import zlib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from appliance.errors import QuizboxError
from appliance.games.night import KINDS, NightEngine, RoundPlan
from appliance.games.registry import GAMES as SPECS
from web import league_plans, results
from web.boxsettings import answer_seconds
from web.catalogue import GAMES, Option, OptionProblem, options_from_form
from web.games import SetupProblem, _handsets, _seats, seat_rows
from web.link import LinkError
from web.results import csv_bytes, safe_cell
from web.services import services

bp = Blueprint("night", __name__, url_prefix="/night")

MAX_ROUNDS = 12

NIGHT_LIMITS = (f"A night seats {NightEngine.min_players} to {NightEngine.max_players} players or teams; each round "
                "seats some of them within its game's limits: "
                + ", ".join(f"{SPECS[k.game].title} {SPECS[k.game].min_players}–{SPECS[k.game].max_players}"
                            for k in KINDS.values()) + ".")
"""The seat limits said beside the night's player list (rules.md The room 1)."""
"""Rows on the planning form (the night engine takes more; a run-sheet saved with more keeps them)."""


class PlanProblem(ValueError):
    pass


def _int(raw: str, what: str, low: int, high: int) -> int | None:
    raw = raw.strip()
    if not raw:
        return None
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise PlanProblem(f"{what}: a whole number from {low} to {high}, please (got {raw!r})")
    return int(raw)


def plan_options(game: str) -> tuple[Option, ...]:
    """The options a night's round of ``game`` offers as fields (the set-up page's, but for a player named
    in advance: who sits each round is chosen while the night runs)."""
    known = GAMES.get(game)
    return tuple(o for o in known.options if o.kind != "player") if known is not None else ()


def _field_options(form: Mapping[str, str], i: int, game: str, where: str, players: list[str]) -> dict[str, Any]:
    """A round's options from its fields (``round-<i>-<game>.<option>``), each within its limits."""
    known = GAMES.get(game)
    if known is None:
        return {}
    prefix = f"round-{i}-"
    fields = {key[len(prefix):]: str(value) for key, value in form.items()
              if key.startswith(f"{prefix}{game}.")}
    try:
        options = options_from_form(replace(known, options=plan_options(game)), fields, players)
    except OptionProblem as exc:
        raise PlanProblem(f"{where} ({KINDS[game].title}): {exc}") from None
    if not options.get("variants", True):
        del options["variants"]  # none ticked: the game's own (and JSON's, if typed there)
    return options


def check_seat_limits(rounds: list[dict[str, Any]], seats: int) -> None:
    """Every round seats the night's players within its game's limits (a round naming its own seats counts
    those): refused when the plan is saved or started, not when the round starts (issue 31, 11)."""
    for number, plan in enumerate(rounds, start=1):
        spec = SPECS[plan["game"]]
        count = len(plan["seats"]) if plan.get("seats") else seats
        if not spec.min_players <= count <= spec.max_players:
            raise PlanProblem(f"Round {number} ({spec.title}) seats {spec.min_players} to {spec.max_players} "
                              f"players; the night has {count}. Choose another game for round {number}, or "
                              f"seat fewer players.")


def rounds_from_form(form: Mapping[str, str], players: list[str] | None = None) -> list[dict[str, Any]]:
    """The run-sheet's rounds from the planning form's rows (a row without a game is left out)."""
    players = players or []
    decks = {d["id"]: d for d in services().store.decks()}
    rounds: list[dict[str, Any]] = []
    for i in range(MAX_ROUNDS):
        game = form.get(f"round-{i}-game", "").strip()
        if not game:
            continue
        where = f"Round {len(rounds) + 1}"
        if game not in KINDS:
            raise PlanProblem(f"{where}: unknown game {game!r}")
        plan: dict[str, Any] = {"game": game, "title": form.get(f"round-{i}-title", "").strip()[:80]}
        deck = form.get(f"round-{i}-deck", "").strip()
        if deck:
            known = decks.get(deck)
            if known is None:
                raise PlanProblem(f"{where}: that deck is gone")
            if known["type"] != SPECS[game].deck:
                raise PlanProblem(f"{where}: {KINDS[game].title} plays {SPECS[game].deck} cards; "
                                  f"{known['name']!r} is a {known['type']} deck")
            plan["deck"] = deck
        elif game != "buzzer":
            raise PlanProblem(f"{where} ({KINDS[game].title}): choose a deck")
        for key, what, high in (("cards", "card count", 500), ("minutes", "time box (minutes)", 600)):
            value = _int(form.get(f"round-{i}-{key}", ""), f"{where}: the {what}", 1, high)
            if value is not None:
                plan[key] = value
        if form.get(f"round-{i}-unseen") == "on":
            plan["unseen"] = True  # only cards this box has never dealt (docs/decks.md)
        multiplier = _int(form.get(f"round-{i}-multiplier", ""), f"{where}: the multiplier", 0, 100)
        plan["multiplier"] = 1 if multiplier is None else multiplier
        options: dict[str, Any] = {}
        raw = form.get(f"round-{i}-options", "").strip()
        if raw:
            try:
                options = json.loads(raw)
            except ValueError:
                raise PlanProblem(f"{where}: more options are JSON, e.g. {{\"answer_seconds\": 45}}") from None
            if not isinstance(options, dict):
                raise PlanProblem(f"{where}: more options are a JSON object")
        options |= _field_options(form, i, game, where, players)
        seconds = answer_seconds()  # the Settings page's answer time, for a round that leaves its own blank
        if seconds and game != "buzzer":
            options.setdefault("answer_seconds", seconds)
        if options:
            plan["options"] = options
        try:
            RoundPlan.from_json(plan)
        except QuizboxError as exc:
            raise PlanProblem(f"{where}: {exc}") from None
        rounds.append(plan)
    if not rounds:
        raise PlanProblem("A night needs at least one round: choose a game for round 1.")
    return rounds


def _form_from_sheet(sheet: Mapping[str, Any]) -> dict[str, str]:
    form = {"title": str(sheet.get("title", "")), "name": str(sheet.get("name", ""))}
    for i, plan in enumerate(sheet.get("rounds", [])[:MAX_ROUNDS]):
        form[f"round-{i}-game"] = str(plan.get("game", ""))
        form[f"round-{i}-title"] = str(plan.get("title", ""))
        form[f"round-{i}-deck"] = str(plan.get("deck", ""))
        for key in ("cards", "minutes"):
            if plan.get(key) is not None:
                form[f"round-{i}-{key}"] = str(plan[key])
        form[f"round-{i}-multiplier"] = str(plan.get("multiplier", 1))
        if plan.get("unseen"):
            form[f"round-{i}-unseen"] = "on"
        if plan.get("options"):
            form[f"round-{i}-options"] = json.dumps(plan["options"])
    return form


def _command(command: dict[str, Any]) -> tuple[bool, str]:
    try:
        result = services().link.command(command, timeout=float(current_app.config["COMMAND_TIMEOUT"]))
    except LinkError as exc:
        return False, str(exc)
    return result.ok, result.msg


def _night_view() -> dict[str, Any] | None:
    board = services().link.board() or {}
    view = board.get("night")
    return view if isinstance(view, dict) else None


# -- planning ------------------------------------------------------------------------------------------


@bp.route("/plan", methods=["GET", "POST"])
def plan() -> str | BaseResponse | tuple[str, int]:
    error = None
    form: Any = request.form
    store = services().store
    if request.method == "POST":
        try:
            try:
                seats = _seats(request.form)
            except SetupProblem:
                if request.form.get("action") != "save":
                    raise
                seats = []  # a run-sheet is saved without its players
            rounds = rounds_from_form(request.form, [s["player"] for s in seats])
            title = request.form.get("title", "").strip()[:80]
            if len(seats) >= 2:  # players filled in: every round must seat them (also when only saving)
                check_seat_limits(rounds, len(seats))
            if request.form.get("action") == "save":
                name = request.form.get("name", "").strip()[:80] or title
                if not name:
                    raise PlanProblem("Give the run-sheet a name to save it under.")
                store.save_runsheet(name, {"title": title, "rounds": rounds})
                flash(f"Run-sheet {name!r} saved.")
                return redirect(url_for("night.sheets"))
            if len(seats) < 2:
                raise PlanProblem("A night needs at least two players (or teams).")
            ok, message = _command({"cmd": "night_start", "title": title, "rounds": rounds, "seats": seats})
            if not ok:
                raise PlanProblem(f"The box refused to start the night: {message}")
            flash("The night has started: the TV shows the standing. Start round 1 when you are ready.")
            return redirect(url_for("night.index"))
        except (PlanProblem, SetupProblem) as exc:
            error = str(exc)
    else:
        sheet_id = request.args.get("sheet", type=int)
        sheet = store.runsheet(sheet_id) if sheet_id is not None else None
        form = _form_from_sheet(sheet) if sheet is not None else {}
        online = [h for h in _handsets() if h.get("online")]
        form |= {f"player-{i}": h["name"] for i, h in enumerate(online)}
        form |= {f"handset-{i}": h["id"] for i, h in enumerate(online)}
    decks = [d for d in store.decks() if d["cards"]]
    kinds = [(k.game, k.title, SPECS[k.game].deck) for k in KINDS.values()]
    handsets = _handsets()
    options = {k.game: plan_options(k.game) for k in KINDS.values()}
    return render_template("night/plan.html", form=form, error=error, kinds=kinds, decks=decks, rounds=MAX_ROUNDS,
                           options=options,
                           seats=seat_rows(form, handsets), handsets=handsets,
                           limits=NIGHT_LIMITS), (400 if error else 200)


@bp.get("/sheets")
def sheets() -> str:
    return render_template("night/sheets.html", sheets=services().store.runsheets())


@bp.post("/sheets/<int:sheet_id>/delete")
def delete_sheet(sheet_id: int) -> BaseResponse:
    if services().store.delete_runsheet(sheet_id):
        flash("Run-sheet deleted.")
    return redirect(url_for("night.sheets"))


# -- during the night ----------------------------------------------------------------------------------

COMMANDS = {
    "night_round": "Start the next round",
    "night_finish": "Finish this round now and score it",
    "night_abandon": "Abandon this round (it does not count)",
    "night_interval": "Interval",
    "night_skip": "Skip",
    "night_move": "Move",
    "night_seat": "Change seats",
    "night_add": "Add a round",
    "night_card": "Tie-break card",
    "night_number": "Enter a number",
    "night_close_card": "Close the card",
    "night_end": "End the night",
    "night_next": "Next: the night's standing",
    "night_hold": "Hold time",
    "night_correct": "Score correction",
    "night_join": "A latecomer joins",
    "night_qr": "Join QR code",
}


CONFIRM = {
    "night_end": "The night ends now: a round in play is abandoned (it does not count) and no round still to come "
                 "is played. This cannot be undone.",
    "night_abandon": "The round in play ends and does not count: nobody scores for it. This cannot be undone.",
    "night_finish": "The round in play ends now and is scored as it stands, by its game's stopped rule (a question "
                    "still open does not count).",
    "night_skip": "This round will not be played tonight; it scores nobody anything.",
}
"""The night page's controls that cannot be taken back: asked first, as the Live page asks (issue 31.3)."""


def night_version() -> str:
    """What the night page shows, as one short string: it changes when the night, the board's scene or
    the tie-break's numbers do (night.js polls it and reloads the page, or offers to)."""
    board = services().link.board() or {}
    shown = {"night": board.get("night"), "scene": board.get("scene"), "can_advance": board.get("can_advance")}
    return format(zlib.crc32(json.dumps(shown, sort_keys=True, default=str).encode()), "08x")


@bp.get("/")
def index() -> str | BaseResponse:
    view = _night_view()
    if view is None:
        return render_template("night/none.html", nights=services().store.nights(limit=20), version=night_version(),
                               league_plans=league_plans.plans())
    decks = [d for d in services().store.decks() if d["cards"]]
    kinds = [(k.game, k.title, SPECS[k.game].deck) for k in KINDS.values()]
    seated = set(view.get("seated") or [])
    free = [h for h in _handsets() if h.get("id") not in seated]  # a latecomer's handset or phone
    return render_template("night/index.html", n=view, board=services().link.board() or {}, kinds=kinds,
                           decks=decks, version=night_version(), free=free)


@bp.get("/version")
def version() -> Response:
    """The night page's version (:func:`night_version`), polled by night.js every two seconds."""
    response = Response(json.dumps({"version": night_version()}), mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


def _round_number(form: Mapping[str, str], key: str = "round") -> int | None:
    raw = form.get(key, "").strip()
    return int(raw) if raw.isdigit() else None


@bp.post("/command")
def command() -> BaseResponse:
    form = request.form
    name = form.get("cmd", "")
    if name not in COMMANDS:
        flash(f"Unknown night control {name!r}.")
        return redirect(url_for("night.index"))
    over = name == "night_end" and (_night_view() or {}).get("phase") == "finished"  # back to the lobby: nothing lost
    if name in CONFIRM and form.get("confirmed") != "yes" and not over:
        label = COMMANDS[name]
        if name == "night_skip":
            label = f"Skip round {_round_number(form)}"
        fields = [(k, v) for k, values in form.lists() if k not in ("csrf_token", "confirmed") for v in values]
        return Response(render_template("confirm.html", label=label, question=CONFIRM[name], fields=fields,
                                        danger=name != "night_finish", action=url_for("night.command"),
                                        back=url_for("night.index")), mimetype="text/html")
    cmd: dict[str, Any] = {"cmd": name}
    if name in ("night_skip", "night_move", "night_seat"):
        cmd["round"] = _round_number(form)
    if name == "night_move":
        before = _round_number(form, "before")
        if before is not None:  # none: to the end
            cmd["before"] = before
    if name == "night_seat":
        cmd["seats"] = form.getlist("seat")
    if name == "night_interval":
        minutes = form.get("minutes", "").strip()
        cmd["seconds"] = int(minutes) * 60 if minutes.isdigit() and int(minutes) <= 60 else 0
    if name == "night_add":
        try:
            (plan,) = rounds_from_form({f"round-0-{k[len('add-'):]}": v for k, v in form.items()
                                        if k.startswith("add-")})
        except (PlanProblem, ValueError) as exc:
            flash(str(exc))
            return redirect(url_for("night.index"))
        cmd["plan"] = plan
    if name == "night_join":
        cmd["player"], cmd["handset"] = form.get("player", "").strip(), form.get("handset", "")
    if name == "night_qr":
        cmd["show"] = form.get("show") == "yes"
    if name == "night_correct":
        raw = form.get("points", "").strip()
        try:
            cmd["points"] = int(raw)
        except ValueError:
            flash(f"Score correction: refused: {raw!r} is not a whole number of points (e.g. 2 or -3).")
            return redirect(url_for("night.index"))
        cmd["team"], cmd["reason"] = form.get("team", ""), form.get("reason", "")
    if name == "night_hold":
        seconds = form.get("seconds", "").strip()
        if seconds:
            if not seconds.isdigit():
                flash(f"Hold time: refused: {seconds!r} is not a whole number of seconds.")
                return redirect(url_for("night.index"))
            cmd["seconds"] = int(seconds)
    if name == "night_card":
        cmd["question"], cmd["answer"] = form.get("question", ""), form.get("answer", "")
    if name == "night_number":
        cmd["player"], cmd["number"] = form.get("player", ""), form.get("number", "")
    ok, message = _command(cmd)
    flash(f"{COMMANDS[name]}: {'done' if ok else 'refused'}{'' if ok else ': ' + message}")
    return redirect(url_for("night.index"))


# -- results ---------------------------------------------------------------------------------------------


def rebuilt(night_id: int) -> tuple[Any, NightEngine]:
    stored = services().store.night(night_id)
    if stored is None:
        abort(404)
    engine = NightEngine(stored.players, stored.options)
    for data in stored.log:
        engine.apply(engine.action_from_json(data))
    return stored, engine


ENDINGS = {"cards": "stopped at its card count", "time": "stopped at its time box",
           "host": "finished early by the quizmaster and scored as it stood"}


def _ending(round_: Mapping[str, Any], games: Mapping[int, int]) -> str:
    """How a scored round ended, from its game's stored result: "" when it was played to the end, else why
    it stopped (its card count, its time box, the quizmaster's finish now: the night page's or the Live page's)."""
    game_id = games.get(round_["number"])
    stored = services().store.game(game_id) if game_id is not None else None
    result: dict[str, Any] = stored.result if stored is not None and isinstance(stored.result, dict) else {}
    night = result.get("night")
    why = night.get("why") if isinstance(night, dict) else None
    stopped = round_["status"] == "stopped" or result.get("stopped") is True
    if not stopped:
        return ""
    return ENDINGS.get(str(why), ENDINGS["host"])


def _table(engine: NightEngine, games: Mapping[int, int] | None = None) -> dict[str, Any]:
    """Per round and in total, the night's players in the order of the night's places; ``corrected``: each
    player's score corrections summed (rules.md Quiz night 7), empty when the night has none; each round's
    ``ending`` (:func:`_ending`) when ``games`` (round number -> stored game id) is given."""
    view = engine.public_view()
    played = [r for r in view["rounds"] if r["status"] in ("finished", "stopped")]
    for round_ in played:
        round_["ending"] = _ending(round_, games) if games is not None else ""
    corrected: dict[str, int] = {}
    for correction in view["corrections"]:
        corrected[correction["team"]] = corrected.get(correction["team"], 0) + correction["points"]
    if corrected:
        corrected = {p: corrected.get(p, 0) for p in engine.players}
    return {"view": view, "rounds": played, "order": [row["player"] for row in view["table"]],
            "corrected": corrected}


def rounds_text(count: int) -> str:
    """"1 round", "5 rounds" (an audit read "5 round(s)")."""
    return f"{count} round{'' if count == 1 else 's'}"


@bp.get("/<int:night_id>")
def result(night_id: int) -> str:
    stored, engine = rebuilt(night_id)
    return render_template("night/result.html", stored=stored, t=_table(engine, stored.rounds),
                           rounds_text=rounds_text)


@bp.get("/<int:night_id>/print")
def print_view(night_id: int) -> str:
    stored, engine = rebuilt(night_id)
    return render_template("night/print.html", stored=stored, t=_table(engine, stored.rounds), rounds_text=rounds_text,
                           date=results.when(stored.ended or stored.started))


@bp.get("/<int:night_id>.csv")
def result_csv(night_id: int) -> Response:
    _, engine = rebuilt(night_id)
    table = _table(engine)
    out = io.StringIO()
    writer = csv.writer(out)
    # every cell as the games' CSV writes it: a name like =HYPERLINK(...) (a phone's name is the guest's own
    # text) or a round title starting with = is shown by a spreadsheet as text, never run as a formula
    writer.writerow([safe_cell(c) for c in (
        "place", "player", *(f"round {r['number']}: {r['title']}" for r in table["rounds"]),
        *(["corrections"] if table["corrected"] else []), "total")])
    places = table["view"]["places"]
    standing = table["view"]["standing"]
    for player in table["order"]:
        writer.writerow([safe_cell(c) for c in (
            places[player], player, *(r["points"].get(player, 0) for r in table["rounds"]),
            *([table["corrected"][player]] if table["corrected"] else []), standing[player])])
    # mimetype text/csv: werkzeug adds the charset itself (a "; charset=utf-8" here was sent twice)
    return Response(csv_bytes(out.getvalue()), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="quizbox-night-{night_id}.csv"'})
