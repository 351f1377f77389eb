"""The league's plans on a member box's night page (rules.md The league 2, docs/league.md): the plans
the league sent (kept by the member link in the store), each offered as a night to start. A league night
plays the plan as the league wrote it (every pub the same questions): the quizmaster only seats the
teams. Starting one puts the plan's cards in the box's decks (a deck the box already has under that id is
replaced by the league's) and starts the night with its ``league_plan``, so its result goes to the league."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from appliance.decks import InvalidDeck
from appliance.infra.league_store import LeagueStore
from web import deckdata
from web.games import SetupProblem, _handsets, _seats, seat_rows
from web.link import LinkError
from web.services import services

bp = Blueprint("league_plans", __name__, url_prefix="/night/league")


def plans() -> list[dict[str, Any]]:
    """The league's plans this box has, for the night page's offer (newest id last)."""
    return LeagueStore(services().store).plans()


def _import_cards(plan: dict[str, Any]) -> None:
    """The plan's decks into the store, every one checked before any is saved."""
    decks = []
    for deck_id, data in plan.get("cards", {}).items():
        try:
            deck = deckdata.from_data({**data, "id": deck_id} if isinstance(data, dict) else {})
        except (InvalidDeck, ValueError, TypeError) as exc:
            raise SetupProblem(f"The league plan's deck {deck_id!r} cannot be used: {exc}") from None
        decks.append(deck)
    for deck in decks:
        deckdata.save(services().store, deck)


@bp.route("/<plan_id>", methods=["GET", "POST"])
def start(plan_id: str) -> BaseResponse | tuple[str, int]:
    plan = LeagueStore(services().store).plan(plan_id)
    if plan is None:
        abort(404)
    error = ""
    form: Any = request.form
    if request.method == "POST":
        try:
            seats = _seats(request.form)
            if len(seats) < 2:
                raise SetupProblem("A league night needs at least two teams.")
            _import_cards(plan)
            command = {"cmd": "night_start", "title": plan.get("title", ""), "rounds": plan["rounds"],
                       "seats": seats, "league_plan": plan_id}
            try:
                result = services().link.command(command, timeout=float(current_app.config["COMMAND_TIMEOUT"]))
            except LinkError as exc:
                raise SetupProblem(f"The box did not answer: {exc}") from None
            if not result.ok:
                raise SetupProblem(f"The box refused to start the league night: {result.msg}")
            flash(f"League night {plan.get('title') or plan_id!r} has started: its result goes to the league "
                  "when it ends.")
            return redirect(url_for("night.index"))
        except SetupProblem as exc:
            error = str(exc)
    else:
        online = [h for h in _handsets() if h.get("online")]
        form = {f"player-{i}": h["name"] for i, h in enumerate(online)} | {
            f"handset-{i}": h["id"] for i, h in enumerate(online)}
    handsets = _handsets()
    return render_template("night/league_start.html", plan=plan, form=form, error=error,
                           seats=seat_rows(form, handsets), handsets=handsets), (400 if error else 200)
