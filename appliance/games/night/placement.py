"""Each round's placement and its night points (rules.md Quiz night 2 and 3).

A placement is computed from a game engine whose game is over (finished by itself, or stopped by
the quizmaster and then ended by that game's stopped rule, see :mod:`~appliance.games.night.stop`).
Every game gives each seated player a *key*: a tuple that compares higher for a better place.
Equal keys share a place; a place is 1 + the number of seated players with a better key (1, 1, 3)
and the round's night points are 1 + the number of seated players with a worse key, times the
round's multiplier; a player who sat the round out scores 0 (rules.md Quiz night 3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import TypeVar

from appliance.games.allin.engine import AllInEngine
from appliance.games.base import Engine
from appliance.games.buzzer.engine import BuzzerEngine
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.poker.room import RoomPokerEngine
from appliance.games.squizz.engine import SquizzEngine

Key = tuple[int | Decimal, ...]
E = TypeVar("E", bound=Engine)
Keys = Mapping[str, Key]


def places(keys: Keys, seats: Sequence[str]) -> dict[str, int]:
    """Each seated player's place, seat order: 1 + the number of players with a better key."""
    return {p: 1 + sum(1 for q in seats if keys[q] > keys[p]) for p in seats}


def night_points(keys: Keys, seats: Sequence[str], players: Sequence[str], multiplier: int) -> dict[str, int]:
    """Every night player's points for the round: (1 + seated players placed strictly below) times
    the multiplier; 0 for a player who sat the round out (rules.md Quiz night 3)."""
    seated = set(seats)
    return {
        p: (1 + sum(1 for q in seats if keys[q] < keys[p])) * multiplier if p in seated else 0 for p in players
    }


# -- each game's order (rules.md Quiz night 2) -------------------------------------------------------


def confident_keys(engine: ConfidentEngine) -> dict[str, Key]:
    """The winner(s) by rule 7 first; then by total points; equal totals share a place."""
    winners = set(engine.winners())
    return {p: (1 if p in winners else 0, engine.scores[p]) for p in engine.players}


def poker_keys(engine: RoomPokerEngine) -> dict[str, Key]:
    """By chips at the end; players knocked out earlier place lower; players knocked out on the same
    question place by the chips they had when that question started (before its ante); across the whole
    room, whatever tables they sat at (rules.md Estimation poker 15)."""
    at_start = poker_stacks_at_each_start(engine)
    stacks = engine.stacks
    keys: dict[str, Key] = {}
    for player in engine.players:
        chips = stacks[player]
        if chips > 0:
            keys[player] = (1, chips, 0, 0)
            continue
        out_on = max(q.number for q in engine.questions if player in q.dealt)
        keys[player] = (0, 0, out_on, at_start[out_on - 1][player])
    return keys


def poker_stacks_at_each_start(engine: RoomPokerEngine) -> list[dict[str, int]]:
    """Every player's chips when each question started, before its ante (rules.md Quiz night 2): the
    room engine keeps them with each question."""
    return [dict(question.before) for question in engine.questions]


def allin_keys(engine: AllInEngine) -> dict[str, Key]:
    """The game's winner first (rule 6, the reader who wins with no chips included); then by chips;
    players who ran out earlier place lower; out on the same question: share."""
    winners = set(engine.winners())
    keys: dict[str, Key] = {}
    for player in engine.players:
        chips = engine.chips[player]
        out_on = 0
        if chips == 0:
            out_on = next(q.number for q in engine.questions if q.revealed and q.chips_after[player] == 0)
        keys[player] = (1 if player in winners else 0, chips, out_on)
    return keys


def squizz_keys(engine: SquizzEngine) -> dict[str, Key]:
    """By points, then by correct answers (rule 6); still equal: share."""
    scores = engine.scores()
    return {p: (scores[p], engine.correct_counts[p]) for p in engine.players}


def buzzer_keys(engine: BuzzerEngine) -> dict[str, Key]:
    """By points; equal: share."""
    return {p: (engine.scores[p],) for p in engine.players}


def _typed(kind: type[E], keys: Callable[[E], dict[str, Key]]) -> Callable[[Engine], dict[str, Key]]:
    def placement(engine: Engine) -> dict[str, Key]:
        if not isinstance(engine, kind):
            raise TypeError(f"{keys.__name__} needs a {kind.__name__}, got {type(engine).__name__}")
        return keys(engine)

    return placement


KEYS: Mapping[str, Callable[[Engine], dict[str, Key]]] = {
    "confident": _typed(ConfidentEngine, confident_keys),
    "poker": _typed(RoomPokerEngine, poker_keys),
    "allin": _typed(AllInEngine, allin_keys),
    "squizz": _typed(SquizzEngine, squizz_keys),
    "buzzer": _typed(BuzzerEngine, buzzer_keys),
}
"""Each round kind's placement keys, computed from its game engine once the game is over."""
