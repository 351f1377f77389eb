"""The fault tests' verdicts, from the store and the bots' records: every acknowledged input is in the
action log exactly once, every player entry in the log came from that player's own handset, and chips
are never created."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from appliance.errors import QuizboxError
from appliance.flows import flow_factory
from appliance.infra.store import StoredGame
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import GameSetup
from appliance.session.session import setup_from_json
from firmware import protocol
from tests.faults.harness import Player, Sent

JSON = dict[str, Any]


def fresh_flow(setup: GameSetup) -> EngineFlow:
    flow = flow_factory(setup.game)(setup, random.Random(0), 0.0)
    assert isinstance(flow, EngineFlow)
    return flow


def replay(game: StoredGame, upto: int | None = None) -> EngineFlow:
    """The game rebuilt from its stored log (or the log's first ``upto`` entries)."""
    flow = fresh_flow(setup_from_json(game.setup))
    flow.restore(game.log if upto is None else game.log[:upto], 0.0)
    return flow


def entry_of(flow: EngineFlow, player: str, handset: str, sent: Sent) -> JSON | None:
    """The log entry ``sent`` becomes when the game applies it (None: the game cannot read it)."""
    message = protocol.make_input(sent.seq, sent.prompt, sent.kind, sent.data, handset)
    try:
        data = protocol.parse_input(handset, message)["data"]
        entry: JSON = flow.parse(player, sent.kind, data).to_json()
    except (protocol.ProtocolError, QuizboxError):
        return None
    return entry


@dataclass
class Match:
    """How one player's log entries line up with what that player's handset sent."""

    player: str
    acked: int = 0  # inputs acked ok
    applied: int = 0  # the player's entries in the log
    applied_unacked: int = 0  # inputs in the log never acked (the ack died with a killed appliance)
    host_made: int = 0  # entries the host's *next*, a time limit or the game made for the player (a fold)
    problems: list[str] = field(default_factory=list)


def host_made(setup: GameSetup, log: Sequence[JSON], index: int) -> bool:
    """Whether ``log[index]`` is what the host's *next*, the time limit or the game itself does at that
    point: the player to act checks or folds in poker, a missing answerer's lowest token is used up in
    sQuizz. Such entries carry the player's name but no input of theirs."""
    flow = fresh_flow(setup)
    try:
        flow.restore(log[:index], 0.0)
    except QuizboxError:
        return False
    steps = (flow.host_step(), flow.timeout(), flow.automatic())
    return any(step is not None and step.to_json() == log[index] for step in steps)


def match_player(setup: GameSetup, log: Sequence[JSON], player: Player) -> Match:
    """Line up ``player``'s entries in ``log`` with the inputs its handset sent, in order: each entry is
    either a sent input, later than the one before (inputs the game refused or never got are passed
    over), or what the host's *next* or a time limit does for the player at that point; no input acked
    ok may be passed over. An input applied twice or one from another handset cannot line up. The
    search takes the lining-up with the fewest unacked inputs applied; look-alike entries (two folds)
    are lined up by search, not greedily."""
    flow = fresh_flow(setup)
    result = Match(player.player)
    entries = [(i, e) for i, e in enumerate(log) if e.get("player") == player.player]
    with player.changed:
        sent = list(player.sent)
    becomes = [entry_of(flow, player.player, player.id, s) for s in sent]
    result.applied, result.acked = len(entries), sum(1 for s in sent if s.acked)
    acked_after = [0] * (len(sent) + 1)  # acked inputs in sent[j:]
    for j in range(len(sent) - 1, -1, -1):
        acked_after[j] = acked_after[j + 1] + sent[j].acked

    @functools.cache
    def by_host(i: int) -> bool:
        return host_made(setup, log, entries[i][0])

    @functools.cache
    def fewest(i: int, j: int) -> tuple[int, int] | None:
        """(unacked inputs, host steps) explaining entries[i:] with sent[j:], fewest unacked first"""
        if i == len(entries):
            return (0, 0) if acked_after[j] == 0 else None
        options = []
        if j < len(sent) and becomes[j] == entries[i][1] and (rest := fewest(i + 1, j + 1)) is not None:
            options.append((rest[0] + (not sent[j].acked), rest[1]))
        if j < len(sent) and not sent[j].acked and (rest := fewest(i, j + 1)) is not None:
            options.append(rest)
        if by_host(i) and (rest := fewest(i + 1, j)) is not None:
            options.append((rest[0], rest[1] + 1))
        return min(options) if options else None

    found = fewest(0, 0)
    if found is None:
        wanted = [_show(s) for s in sent if s.acked]
        result.problems.append(
            f"the log's {len(entries)} entries {[e for _, e in entries]} do not line up with the {len(sent)} "
            f"inputs sent, acked ones: {wanted}")
    else:
        result.applied_unacked, result.host_made = found
    fewest.cache_clear()
    by_host.cache_clear()
    return result


def match_all(game: StoredGame, players: Iterable[Player], log: Sequence[JSON] | None = None) -> list[Match]:
    setup = setup_from_json(game.setup)
    return [match_player(setup, game.log if log is None else log, p) for p in players]


def problems(matches: Iterable[Match]) -> list[str]:
    return [f"{m.player}: {p}" for m in matches for p in m.problems]


def _show(sent: Sent) -> str:
    return f"seq {sent.seq} on {sent.prompt} {sent.data}"


def chips_in_play(view: Mapping[str, Any]) -> int | None:
    """All chips on the table in a board view (stacks plus pots), or None for a game without chips."""
    if view.get("game") == "allin":
        return sum(int(c) for c in view["chips"].values())
    if view.get("game") == "poker" and view.get("tables"):  # room tables: every table's pot (rules.md poker 13)
        return sum(int(s) for s in view["stacks"].values()) + sum(int(t["pot"]) for t in view["tables"])
    if view.get("game") == "poker":  # stacks, plus the pots of a question still being played
        question = view.get("question") or {}
        return sum(int(s) for s in view["stacks"].values()) + sum(int(p["amount"]) for p in question.get("pots", []))
    return None


def chip_trail(game: StoredGame) -> list[int]:
    """Chips in play after each entry of the log (empty for a game without chips)."""
    trail = []
    for upto in range(len(game.log) + 1):
        chips = chips_in_play(replay(game, upto).board())
        if chips is None:
            return []
        trail.append(chips)
    return trail
