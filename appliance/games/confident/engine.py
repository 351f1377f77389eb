"""The Confident? rules engine (seed 000; product decisions: rules.md "Confident?" 1-8).

A question goes: the host asks it (phase ``open``), every player writes one board (a range or a copy,
optionally a swap and a double), the host closes entries (``closed``: everyone in, or the time-out;
a player with no board has no range) and settles (``settled``): copies, swaps, scoring, doubles,
the Final Hurdle cap, totals. The game is ``finished`` when someone reaches the target (rules.md
Confident 7) or when the host ends it because the deck ran out (highest total wins, ties share).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from appliance.games.base import HOST, JSON, Action, Engine, Questions, Totals, UnknownPlayer, Views, WrongPhase
from appliance.games.confident import options as confident_options
from appliance.games.confident import settlement, views
from appliance.games.confident.actions import Answer, Boost, Close, CloseReason, EndGame, Settle, StartQuestion
from appliance.games.confident.options import Variant
from appliance.games.confident.refusals import (
    AlreadyAnswered,
    BoostNotInVariant,
    BoostUsed,
    CopySelf,
    HostOnly,
    NoRangeOrCopy,
    NotEveryoneIn,
    RangeUpsideDown,
    SwapSamePlayer,
    SwapSelf,
)
from appliance.games.confident.settlement import Settlement
from appliance.games.numbers import format_plain

MAX_SEATS = 40
"""The box has six answerboards; the appliance seats a room of 40 teams at the default options (rules.md
The room 1)."""


class Phase(StrEnum):
    LOBBY = "lobby"
    """No question asked yet."""
    OPEN = "open"
    """A question is open: players write their boards."""
    CLOSED = "closed"
    """Entries are closed; the host settles next."""
    SETTLED = "settled"
    """The question is settled; the host asks the next one or ends the game (deck ran out)."""
    FINISHED = "finished"


class Ending(StrEnum):
    TARGET = "target"
    """Someone reached the target (rules.md Confident 7)."""
    DECK_RAN_OUT = "deck_ran_out"
    """The host ended the game: highest total wins, ties share (rules.md Confident 7)."""


@dataclass
class Question:
    """One question as played: its card, the boards as written, how entries closed, the settlement."""

    number: int
    card: StartQuestion
    boards: dict[str, Answer] = field(default_factory=dict)
    closed: CloseReason | None = None
    settlement: Settlement | None = None


class ConfidentEngine(Questions[Question], Engine):
    """Confident? for 3 to 12 players (teams count as one), or exactly 2 with Two Players.

    Options: ``target`` (15), ``variants`` (rules.md Confident 8), ``fast_play_seconds`` (10; used by
    the session, which sends the time-out close)."""

    game: ClassVar[str] = "confident"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_SEATS
    defaults: ClassVar[Mapping[str, Any]] = confident_options.DEFAULTS
    views: ClassVar[Views] = views
    _phase: Phase
    final_phase: ClassVar[str] = Phase.FINISHED.value
    actions: ClassVar[Mapping[str, type[Action]]] = {
        record.kind: record for record in (StartQuestion, Answer, Close, Settle, EndGame)
    }

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.target: int = self.options["target"]
        self.variants: frozenset[Variant] = frozenset(Variant(v) for v in self.options["variants"])
        self.scores: dict[str, int] = {p: 0 for p in self.players}
        self.boosts_used: dict[str, dict[Boost, int]] = {p: {} for p in self.players}
        """Per player, each boost played and the number of the question it was played on."""
        self.questions: list[Question] = []
        self.ending: Ending | None = None
        self._phase = Phase.LOBBY

    def validate_options(self, options: JSON) -> JSON:
        return confident_options.validate(options, len(self.players))

    # -- state queries -----------------------------------------------------------------------------

    def boosts_left(self, player: str) -> list[Boost]:
        """Boosts ``player`` may still play: unused, and allowed by the variants (rules.md 5, 8)."""
        allowed = [Boost.DOUBLE] if Variant.TWO_PLAYERS in self.variants else list(Boost)
        return [boost for boost in allowed if boost not in self.boosts_used[player]]

    def status(self) -> str:
        """What the game is waiting for, in words (refusal messages, the replay)."""
        question = self.current
        if self._phase is Phase.FINISHED:
            return f"the game is over ({', '.join(self._winners) or 'nobody'} won)"
        if question is None:
            return "no question has been asked yet"
        if self._phase is Phase.OPEN:
            waiting = [p for p in self.players if p not in question.boards]
            return f"question {question.number} is open (waiting for {', '.join(waiting) or 'nobody'})"
        if self._phase is Phase.CLOSED:
            assert question.closed is not None
            return f"entries for question {question.number} are closed ({question.closed.value})"
        return f"question {question.number} is settled"

    def legal_inputs(self, player: str) -> JSON:
        """What ``player``'s handset may offer now: whether a board is wanted, which boosts are left,
        whom they may copy or swap (every other player; a swap names two different ones)."""
        self._check_player(player)
        question = self.current
        wanted = self._phase is Phase.OPEN and question is not None and player not in question.boards
        boosts = self.boosts_left(player) if wanted else []
        others = [p for p in self.players if p != player]
        return {
            "answer": wanted,
            "boosts": [boost.value for boost in boosts],
            "copy": others if Boost.COPY in boosts else [],
            "swap": others if Boost.SWAP in boosts and len(others) >= 2 else [],
            "status": self.status(),
        }

    # -- host: ask a question --------------------------------------------------------------------------

    def verify_question(self, action: StartQuestion) -> None:
        self._check_host(action, "ask a question")
        if self._phase not in (Phase.LOBBY, Phase.SETTLED):
            raise WrongPhase(f"cannot ask a new question: {self.status()}")

    def question(self, action: StartQuestion) -> None:
        self.verify_question(action)
        self._record(action)
        self.questions.append(Question(len(self.questions) + 1, action))
        self._advance()

    # -- player: write a board ---------------------------------------------------------------------

    def verify_answer(self, action: Answer) -> None:
        player = action.player
        self._check_player(player)
        question = self.current
        what = f"{player} cannot write {action.describe(self.named)}"
        if self._phase is not Phase.OPEN or question is None:
            raise WrongPhase(f"{what}: {self.status()}")
        if player in question.boards:
            raise AlreadyAnswered(f"{what}: {player} already answered question {question.number}")
        if (action.range is None) == (action.copy is None):
            raise NoRangeOrCopy(f"{what}: a board has a range or a copy (the copier writes no range)")
        if action.range is not None and action.range.upside_down:
            bottom, top = (format_plain(n) for n in action.range)
            raise RangeUpsideDown(f"{what}: the bottom {bottom} is above the top {top}; write the smaller number first")
        if action.copy is not None:
            if action.copy == player:
                raise CopySelf(f"{what}: a player cannot copy themselves")
            self._check_named(action.copy, what)
        if action.swap is not None:
            if player in action.swap:
                raise SwapSelf(f"{what}: a swap names two OTHER players")
            if action.swap[0] == action.swap[1]:
                raise SwapSamePlayer(f"{what}: a swap names two different players")
            for name in action.swap:
                self._check_named(name, what)
        for boost in action.boosts:
            if Variant.TWO_PLAYERS in self.variants and boost is not Boost.DOUBLE:
                raise BoostNotInVariant(f"{what}: with Two Players, Double is the only boost")
            if boost in self.boosts_used[player]:
                used_on = self.boosts_used[player][boost]
                raise BoostUsed(f"{what}: {player} already played their {boost.value} on question {used_on}")

    def answer(self, action: Answer) -> None:
        self.verify_answer(action)
        self._record(action)
        question = self._open()
        question.boards[action.player] = action
        for boost in action.boosts:
            self.boosts_used[action.player][boost] = question.number  # used up when played (rule 5)
        self._advance()

    # -- host: close entries, settle ---------------------------------------------------------------

    def verify_close(self, action: Close) -> None:
        self._check_host(action, "close entries")
        if self._phase is not Phase.OPEN:
            raise WrongPhase(f"cannot close entries: {self.status()}")
        question = self._open()
        missing = [p for p in self.players if p not in question.boards]
        if action.reason == CloseReason.EVERYONE_IN and missing:
            raise NotEveryoneIn(
                f"cannot close question {question.number} as everyone in: {', '.join(missing)} "
                "has not answered (close on time-out instead)"
            )

    def close(self, action: Close) -> None:
        self.verify_close(action)
        self._record(action)
        self._open().closed = CloseReason(action.reason)
        self._advance()

    def verify_settle(self, action: Settle) -> None:
        self._check_host(action, "settle")
        if self._phase is not Phase.CLOSED:
            raise WrongPhase(f"cannot settle: {self.status()}")

    def settle(self, action: Settle) -> None:
        self.verify_settle(action)
        self._record(action)
        question = self._open()
        result = settlement.settle(
            self.players, question.boards, question.card.answer, self.variants, self.target, self.scores
        )
        question.settlement = result
        self.scores = dict(result.scores)
        if result.winners:
            self.ending = Ending.TARGET
            self._winners = list(result.winners)
        self._advance()

    # -- host: the deck ran out --------------------------------------------------------------------

    def verify_end(self, action: EndGame) -> None:
        self._check_host(action, "end the game")
        if self._phase not in (Phase.LOBBY, Phase.SETTLED):
            raise WrongPhase(f"cannot end the game now: {self.status()}")

    def end(self, action: EndGame) -> None:
        self.verify_end(action)
        self._record(action)
        best = max(self.scores.values())
        self.ending = Ending.DECK_RAN_OUT
        self._winners = [p for p in self.players if self.scores[p] == best]  # ties share (rule 7)
        self._advance()

    # -- the phase machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """The one place the phase moves on, decided from the state alone."""
        question = self.current
        if self.ending is not None:
            self._phase = Phase.FINISHED
        elif question is None:
            self._phase = Phase.LOBBY
        elif question.settlement is not None:
            self._phase = Phase.SETTLED
        elif question.closed is not None:
            self._phase = Phase.CLOSED
        else:
            self._phase = Phase.OPEN

    def question_over(self, question: Question) -> bool:
        return question.settlement is not None

    def _check_host(self, action: Action, what: str) -> None:
        if action.player != HOST:
            raise HostOnly(f"{action.player!r} cannot {what}: only the host does")

    def _check_named(self, name: str, what: str) -> None:
        if name not in self.players:
            raise UnknownPlayer(f"{what}: {name!r} is not playing (seats 1 to {len(self.players)})")

    # -- views -------------------------------------------------------------------------------------

    def totals(self) -> Totals:
        return Totals(f"Points (target {self.target})", "points", {p: self.scores[p] for p in self.players})

    def state(self) -> JSON:
        return views.state(self)
