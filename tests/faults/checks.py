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
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import GameSetup, flow_factory
from appliance.session.session import setup_from_json
from appliance.store import StoredGame
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
    applied_unacked: int = 0  # in the log, never acked (the ack died with a killed appliance)
    problems: list[str] = field(default_factory=list)


def match_player(flow: EngineFlow, log: Sequence[JSON], player: Player) -> Match:
    """Line up ``player``'s entries in ``log`` with the inputs its handset sent, in order: each entry
    must be a sent input, later than the one before (inputs the game refused or never got are passed
    over), and no input acked ok may be passed over. An input applied twice or one from another
    handset cannot line up. Entries that look alike (two folds) are lined up by a search, not greedily:
    a fold that never arrived and a later acked one must not be confused."""
    result = Match(player.player)
    entries = [e for e in log if e.get("player") == player.player]
    with player.changed:
        sent = list(player.sent)
    becomes = [entry_of(flow, player.player, player.id, s) for s in sent]
    result.applied, result.acked = len(entries), sum(1 for s in sent if s.acked)
    acked_after = [0] * (len(sent) + 1)  # acked inputs in sent[j:]
    for j in range(len(sent) - 1, -1, -1):
        acked_after[j] = acked_after[j + 1] + sent[j].acked

    @functools.cache
    def fits(i: int, j: int) -> bool:
        """entries[i:] line up with sent[j:]"""
        if i == len(entries):
            return acked_after[j] == 0
        if len(sent) - j < len(entries) - i:
            return False
        if becomes[j] == entries[i] and fits(i + 1, j + 1):
            return True
        return not sent[j].acked and fits(i, j + 1)

    if fits(0, 0):
        result.applied_unacked = result.applied - result.acked
    else:
        wanted = [_show(s) for s in sent if s.acked]
        result.problems.append(
            f"the log's {len(entries)} entries {entries} do not line up with the {len(sent)} inputs sent, "
            f"acked ones: {wanted}")
    fits.cache_clear()
    return result


def match_all(game: StoredGame, players: Iterable[Player], log: Sequence[JSON] | None = None) -> list[Match]:
    flow = fresh_flow(setup_from_json(game.setup))
    return [match_player(flow, game.log if log is None else log, p) for p in players]


def problems(matches: Iterable[Match]) -> list[str]:
    return [f"{m.player}: {p}" for m in matches for p in m.problems]


def _show(sent: Sent) -> str:
    return f"seq {sent.seq} on {sent.prompt} {sent.data}"


def chips_in_play(view: Mapping[str, Any]) -> int | None:
    """All chips on the table in a board view (stacks plus pots), or None for a game without chips."""
    if view.get("game") == "allin":
        return sum(int(c) for c in view["chips"].values())
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
