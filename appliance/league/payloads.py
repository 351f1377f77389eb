"""What flows between a member box and the league (docs/league.md): a night's result out, a plan in.

Both are JSON. Every payload that arrives is read by :func:`read_result` or :func:`read_plan`, which
refuse anything malformed with a :class:`LeagueError` naming the field, so a bad message is logged and
dropped and nothing stored is touched. A result is built from the night engine as it finished (rules.md
The league 2: the box's own places, tie-break included; the league never re-scores it).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping
from typing import Any

from appliance.errors import QuizboxError
from appliance.games.night import NightEngine
from appliance.games.night.plan import RoundPlan

VERSION = 1
MAX_PAYLOAD = 256 * 1024  # the box's broker's message_size_limit
MAX_TEAMS = 256
ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # box ids, result ids, plan ids: they are topic levels


class LeagueError(QuizboxError):
    """A league payload, join code or setting that cannot be used; the message says which part."""


def check_id(value: object, what: str) -> str:
    if not isinstance(value, str) or not ID.match(value):
        raise LeagueError(f"{what} must be 1-64 letters, digits, '-' or '_', got {json.dumps(value)[:80]}")
    return value


def new_result_id(box: str, night_id: int) -> str:
    """Unique per box and night (the random part keeps a box reinstalled from scratch from reusing one)."""
    return f"{box}-n{night_id}-{secrets.token_hex(4)}"


def night_result(engine: NightEngine, *, box: str, result_id: str, plan: str,
                 seats: Mapping[str, str], teams: Mapping[str, str], finished: float) -> dict[str, Any]:
    """The result of a finished league night: its seats (seat number, team, device), each team's place
    and night points, each round's places and points, the box, the plan and the result id."""
    if not engine.finished:
        raise LeagueError("only a finished night has a result")
    places, standing = engine.places(), engine.standing()
    return {
        "v": VERSION, "result_id": check_id(result_id, "a result id"), "box": check_id(box, "a box id"),
        "plan": check_id(plan, "a plan id"), "title": engine.title, "finished": finished,
        "seats": [{"seat": n, "team": teams.get(p, p), "device": seats.get(p, "")}
                  for n, p in enumerate(engine.players, 1)],
        "places": {teams.get(p, p): places[p] for p in engine.players},
        "points": {teams.get(p, p): standing[p] for p in engine.players},
        "rounds": [{"number": r.number, "game": r.plan.game, "title": r.plan.title, "status": r.status.value,
                    "places": {teams.get(p, p): n for p, n in r.places.items()},
                    "points": {teams.get(p, p): n for p, n in r.points.items()}} for r in engine.rounds],
    }


def _decode(raw: bytes, what: str) -> dict[str, Any]:
    if len(raw) > MAX_PAYLOAD:
        raise LeagueError(f"{what} is {len(raw)} bytes; at most {MAX_PAYLOAD}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise LeagueError(f"{what} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise LeagueError(f"{what} must be a JSON object")
    if data.get("v") != VERSION:
        raise LeagueError(f"{what} has version {data.get('v')!r}; this box reads version {VERSION}")
    return data


def _team_numbers(value: object, what: str) -> dict[str, int]:
    if not isinstance(value, dict) or not 1 <= len(value) <= MAX_TEAMS:
        raise LeagueError(f"{what} must map 1-{MAX_TEAMS} team names to whole numbers")
    for team, number in value.items():
        if not team.strip() or len(team) > 80 or not isinstance(number, int) or isinstance(number, bool):
            raise LeagueError(f"{what}: {json.dumps(team)[:40]} -> {json.dumps(number)[:20]} is not a team's number")
    return dict(value)


def read_result(raw: bytes, box: str | None = None) -> dict[str, Any]:
    """A result as sent by a box; with ``box`` (the topic's author), refused unless the result says it too
    (rules.md The league 5)."""
    data = _decode(raw, "a result")
    check_id(data.get("result_id"), "a result's result_id")
    author = check_id(data.get("box"), "a result's box")
    check_id(data.get("plan"), "a result's plan")
    if box is not None and author != box:
        raise LeagueError(f"result {data['result_id']} says box {author!r} but came from box {box!r}")
    places = _team_numbers(data.get("places"), "a result's places")
    if any(not 1 <= p <= len(places) for p in places.values()):
        raise LeagueError(f"a result's places run from 1 to the number of teams ({len(places)})")
    _team_numbers(data.get("points"), "a result's points")
    if not isinstance(data.get("rounds"), list) or not isinstance(data.get("seats"), list):
        raise LeagueError("a result needs its rounds and its seats (lists)")
    return data


def plan_payload(plan_id: str, title: str, rounds: list[Any], cards: Mapping[str, Any]) -> dict[str, Any]:
    """A league plan: a run-sheet (rounds as the night engine reads them) with the cards each round deals
    (deck id -> a deck in appliance.decks' JSON format), so every pub plays the same questions."""
    data = {"v": VERSION, "plan": plan_id, "title": title, "rounds": rounds, "cards": dict(cards)}
    return read_plan(json.dumps(data).encode())


def read_plan(raw: bytes) -> dict[str, Any]:
    """A plan as the league sends it; every round is checked as the night page would check it."""
    data = _decode(raw, "a plan")
    check_id(data.get("plan"), "a plan's id")
    title, rounds, cards = data.get("title", ""), data.get("rounds"), data.get("cards", {})
    if not isinstance(title, str) or len(title) > 80:
        raise LeagueError("a plan's title is text of at most 80 characters")
    if not isinstance(rounds, list) or not rounds:
        raise LeagueError("a plan needs a list of rounds")
    if not isinstance(cards, dict):
        raise LeagueError("a plan's cards map deck ids to decks")
    for number, round_ in enumerate(rounds, 1):
        try:
            plan = RoundPlan.from_json(round_)
        except QuizboxError as exc:
            raise LeagueError(f"plan {data['plan']} round {number}: {exc}") from None
        if plan.deck and plan.deck not in cards:
            raise LeagueError(f"plan {data['plan']} round {number} deals from deck {plan.deck!r}, "
                              "which the plan does not carry")
    return data
