"""The quiz night's admin commands (protocol.md: ``night_start``, ``night_round``...), read and checked here
at the edge with every other admin command (appliance/edge/commands.py), then run as typed calls on the
session's :class:`~appliance.session.night.NightRunner`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from appliance.errors import MalformedInput
from appliance.session.night import NightRunner

NIGHT_COMMANDS = (
    "night_start", "night_round", "night_finish", "night_abandon", "night_add", "night_skip", "night_move",
    "night_seat", "night_interval", "night_card", "night_number", "night_close_card", "night_end",
    "night_next", "night_hold", "night_correct", "night_join", "night_qr",
)


def _number(command: Mapping[str, Any], key: str, optional: bool = False) -> int | None:
    value = command.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedInput(f"{command.get('cmd')} needs {key} as a whole number, got {value!r}")
    return value


def _text(command: Mapping[str, Any], key: str) -> str:
    value = command.get(key, "")
    if not isinstance(value, str):
        raise MalformedInput(f"{command.get('cmd')} needs {key} as text, got {value!r}")
    return value


def night_command(runner: NightRunner, command: Mapping[str, Any], accepted: Callable[[str], bool]) -> str:
    """Run one admin night command; ``accepted(handset_id)`` says whether a handset is at the table.
    Raises a QuizboxError on refusal (nothing changes)."""
    name = command.get("cmd")
    if name == "night_start":
        seats = command.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, Mapping) for s in seats):
            raise MalformedInput('night_start needs seats: a list of {"player", "handset"}')
        mapping: dict[str, str] = {}
        for seat in seats:
            player, handset = seat.get("player"), seat.get("handset")
            if not isinstance(handset, str) or not accepted(handset):
                raise MalformedInput(f"handset {handset!r} is not at the table")
            if not isinstance(player, str) or not player.strip() or player in mapping:
                raise MalformedInput(f"bad or repeated player name {player!r}")
            mapping[player] = handset
        rounds = command.get("rounds")
        if not isinstance(rounds, list) or not rounds:
            raise MalformedInput("night_start needs its rounds (a run-sheet of at least one round)")
        plan = command.get("league_plan")
        if plan is not None and not isinstance(plan, str):
            raise MalformedInput("night_start's league_plan is a plan id (text)")
        runner.start(mapping, rounds, _text(command, "title"), league_plan=plan)
        return f"the night starts with {len(rounds)} round{'' if len(rounds) == 1 else 's'}"
    if name == "night_round":
        runner.start_round()
        return "round started"
    if name == "night_finish":
        runner.finish_round(stopped=True)
        return "round finished now and scored"
    if name == "night_abandon":
        runner.abandon_round()
        return "round abandoned: it does not count"
    if name == "night_add":
        plan = command.get("plan")
        if not isinstance(plan, Mapping):
            raise MalformedInput("night_add needs a plan")
        runner.add_round(plan, _number(command, "before", optional=True))
        return "round added"
    if name == "night_skip":
        runner.skip_round(_number(command, "round") or 0)
        return "round skipped"
    if name == "night_move":
        runner.move_round(_number(command, "round") or 0, _number(command, "before", optional=True))
        return "round moved"
    if name == "night_seat":
        seats = command.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise MalformedInput("night_seat needs seats: a list of player names")
        runner.seat_round(_number(command, "round") or 0, seats)
        return "seats changed"
    if name == "night_interval":
        runner.interval(_number(command, "seconds") or 0)
        return "interval"
    if name == "night_card":
        runner.tiebreak_card(_text(command, "question"), _text(command, "answer"))
        return "tie-break card open"
    if name == "night_number":
        runner.enter_number(_text(command, "player"), _text(command, "number"))
        return "number in"
    if name == "night_close_card":
        runner.close_card()
        return "card closed"
    if name == "night_next":
        runner.release()
        return "the night's standing"
    if name == "night_hold":
        seconds = _number(command, "seconds", optional=True)
        runner.hold_for(seconds)
        return f"final screens stay {seconds} s" if seconds else "final screens stay until next"
    if name == "night_correct":
        points = _number(command, "points") or 0
        runner.correct_score(_text(command, "team"), points, _text(command, "reason"))
        return f"{points:+d} point{'' if abs(points) == 1 else 's'} for {command.get('team')}"
    if name == "night_join":
        handset = command.get("handset")
        if not isinstance(handset, str) or not accepted(handset):
            raise MalformedInput(f"handset {handset!r} is not at the table")
        team = _text(command, "player").strip()
        runner.join(team, handset)
        return f"{team} joins the night with 0 points"
    if name == "night_qr":
        show = command.get("show")
        if not isinstance(show, bool):
            raise MalformedInput(f"night_qr needs show: true or false, got {show!r}")
        runner.show_join(show)
        return "the join QR code is on the TV" if show else "the night's standing is back on the TV"
    if name == "night_end":
        runner.end()
        return "night ended"
    raise MalformedInput(f"unknown night command {name!r}")
