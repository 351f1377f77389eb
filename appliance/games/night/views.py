"""What the TV and the admin page may show of a night, and what each handset may show.

The public view never shows a tie-break card's answer or a player's number before the card is
closed (everyone enters at once, like a range).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.games.base import JSON
from appliance.games.night.state import SCORED, Round, Tiebreak
from appliance.games.numbers import format_plain

if TYPE_CHECKING:
    from appliance.games.night.engine import NightEngine


def round_view(engine: NightEngine, round_: Round) -> JSON:
    kind = engine.kind(round_)
    plan = round_.plan
    return {
        "number": round_.number,
        "game": plan.game,
        "kind": kind.title,
        "title": plan.title or kind.title,
        "seats": list(round_.seats),
        "sitting_out": [p for p in engine.players if p not in round_.seats],
        "multiplier": plan.multiplier,
        "status": round_.status.value,
        "places": dict(round_.places),
        "points": dict(round_.points) if round_.status in SCORED else {},
        "deck": plan.deck,
        "cards": plan.cards,
        "minutes": plan.minutes,
    }


def card_view(card: Tiebreak) -> JSON:
    view: JSON = {
        "number": card.number,
        "question": card.question,
        "tied": list(card.tied),
        "entered": [p for p in card.tied if p in card.numbers],
        "waiting_for": card.waiting_for,
        "closed": card.closed,
    }
    if card.closed:
        view["answer"] = format_plain(card.answer)
        view["numbers"] = {p: format_plain(n) for p, n in card.numbers.items()}
        view["distances"] = card.distances_json()
        view["ahead"] = list(card.ahead)
    return view


def standings(engine: NightEngine) -> list[JSON]:
    """The night's standing, best first, with places (``table`` in the public view: the board's and the
    admin page's; the uniform ``standings`` block is :meth:`NightEngine.totals`)."""
    totals = engine.standing()
    places = engine.places()
    order = sorted(engine.players, key=lambda p: (places[p], engine.players.index(p)))
    return [{"player": p, "place": places[p], "total": totals[p]} for p in order]


def public_view(engine: NightEngine) -> JSON:
    scored = engine.scored()
    last = scored[-1] if scored else None  # rounds are played in list order (moves stay among those to come)
    next_round = engine.next_round
    playing = engine.playing
    return {
        "game": "night",
        "title": engine.title,
        "phase": engine.phase,
        "players": list(engine.players),
        "standing": engine.standing(),
        "places": engine.places(),
        "table": standings(engine),
        "rounds": [round_view(engine, r) for r in engine.rounds],
        "played": len([r for r in engine.rounds if r.status in SCORED]),
        "last": round_view(engine, last) if last is not None else None,
        "playing": round_view(engine, playing) if playing is not None else None,
        "next": round_view(engine, next_round) if next_round is not None else None,
        "tied": engine.tied() if engine.phase in ("tiebreak", "card", "finished") else [],
        "cards": [card_view(c) for c in engine.cards],
        "corrections": [{"team": c.team, "points": c.points, "reason": c.reason} for c in engine.corrections],
        "winners": engine.winners(),
        "finished": engine.finished,
    }


def private_view(engine: NightEngine, player: str) -> JSON:
    card = engine.card
    return {
        "player": player,
        "total": engine.standing()[player],
        "place": engine.places()[player],
        "prompt": engine.legal_inputs(player),
        "number": format_plain(card.numbers[player]) if card is not None and player in card.numbers else None,
    }
