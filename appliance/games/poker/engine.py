"""The estimation poker rules engine (seed 002; product decisions: rules.md "Estimation poker" 1-12).

A question goes: the host starts it with the card and the ante in force (everyone with chips antes,
a short stack all-in for what they have), players enter secret ranges (phase ``ranges``), the host
starts betting (ranges lock; no range means folded), then four betting rounds with hint 1, hint 2
and the answer shown as rounds 1-3 end (phase ``betting``), then the showdown pays each pot (phase
``showdown``). Everything after a betting action happens by itself in :meth:`PokerEngine._advance`:
the next player to act, the next round, the run-out when nobody can bet any more (rules.md 7),
fold-to-one (rules.md 8) and the showdown (rules.md 9-10). Chips are never created or lost.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from appliance.errors import ConfigError
from appliance.games import fields
from appliance.games.base import JSON, Action, Engine, NotYourTurn, Questions, Totals, Views, WrongPhase
from appliance.games.poker import views
from appliance.games.poker.actions import (
    ALL_ACTIONS,
    AllIn,
    Bet,
    Call,
    Check,
    EndGame,
    EnterRange,
    Fold,
    Raise,
    Reveal,
    StartBetting,
    StartQuestion,
)
from appliance.games.poker.betting import ROUNDS, Offer, Round
from appliance.games.poker.pots import clockwise_from
from appliance.games.poker.refusals import (
    BadAmount,
    NoRanges,
    NothingToReveal,
    NotInQuestion,
    RangesLocked,
    ReversedRange,
)
from appliance.games.poker.schedule import DEFAULT_EVERY_MINUTES, AnteSchedule, Unit, ante_at, parse_schedule
from appliance.games.poker.settle import settle
from appliance.games.poker.state import REVEALS, Ending, Phase, Question
from appliance.games.ranges import Range

DEFAULT_STACK = 1000
DEFAULT_ANTE = 10
OPTIONS = ("stack", "ante", "first", "ante_every")


def _whole_at_least_one(name: str, value: object) -> int:
    return fields.whole(value, f"poker option {name} must be a whole number of chips of at least 1", low=1,
                        error=ConfigError)


def poker_options(options: Mapping[str, Any], players: Sequence[str]) -> JSON:
    """The complete options of a game of ``players`` (defaults filled in), or ConfigError."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ConfigError(f"unknown poker option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
    stack = _whole_at_least_one("stack", options.get("stack", DEFAULT_STACK))
    ante = _whole_at_least_one("ante", options.get("ante", DEFAULT_ANTE))
    first = options.get("first", players[0])
    if first not in players:
        raise ConfigError(f"poker option first must be one of {', '.join(players)}, got {first!r}")
    schedule = parse_schedule(options.get("ante_every"), ante)
    return {"stack": stack, "ante": ante, "first": first, "ante_every": schedule.to_json()}


class PokerEngine(Questions[Question], Engine):
    """Estimation poker for 2 to 8 players (options ``stack`` 1000, ``ante`` 10, ``first``: the first
    actor of question 1, default the first seat, ``ante_every``: ``{"minutes": 20}`` by default)."""

    game: ClassVar[str] = "poker"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    defaults: ClassVar[Mapping[str, Any]] = {
        "stack": DEFAULT_STACK, "ante": DEFAULT_ANTE, "ante_every": {Unit.MINUTES.value: DEFAULT_EVERY_MINUTES},
    }
    views: ClassVar[Views] = views
    _phase: Phase
    actions: ClassVar[Mapping[str, type[Action]]] = {record.kind: record for record in ALL_ACTIONS}

    def __init__(
        self, players: Sequence[str], options: Mapping[str, Any] | None = None, stacks: Mapping[str, int] | None = None
    ) -> None:
        """``stacks``: each player's chips when the game starts, where they are not the ``stack`` option
        (a room's final table, which sits down with the chips its players have: rules.md Estimation
        poker 14)."""
        super().__init__(players, options)
        stack: int = self.options["stack"]
        self.stacks: dict[str, int] = dict.fromkeys(self.players, stack)
        if stacks is not None:
            self.stacks.update({p: _whole_at_least_one("stack", stacks[p]) for p in self.players})
        self.questions: list[Question] = []
        self.ending: Ending | None = None
        self._phase = Phase.WAITING

    def validate_options(self, options: JSON) -> JSON:
        return poker_options(options, self.players)

    @functools.cached_property
    def schedule(self) -> AnteSchedule:
        """The ante schedule the session follows (it passes the ante in force to each question); parsed
        once (the options never change): the board asks for it after every bet."""
        return parse_schedule(self.options["ante_every"], self.options["ante"])

    def ante_for_next(self, elapsed_seconds: float) -> int:
        """The ante for the next question, ``elapsed_seconds`` after the game started: what the
        session passes in :class:`StartQuestion` (see :func:`~.schedule.ante_at`)."""
        return ante_at(self.schedule, elapsed_seconds, len(self.questions))

    # -- state queries -----------------------------------------------------------------------------

    @property
    def to_act(self) -> str | None:
        """Whose turn it is in a betting round, or None."""
        question = self.current
        if self._phase is not Phase.BETTING or question is None or question.round is None:
            return None
        return question.round.to_act

    def holders(self) -> list[str]:
        """Players with chips, seat order; the others are out (rules.md 12)."""
        return [p for p in self.players if self.stacks[p] > 0]

    def next_first(self) -> str:
        """First actor of the next question: the ``first`` option for question 1, then one seat
        clockwise each question, skipping players with no chips (rules.md Estimation poker 2)."""
        last = self.current
        if last is None:
            first: str = self.options["first"]
            return first
        after = clockwise_from(self.players, last.first)[1:] + [last.first]
        return next(p for p in after if self.stacks[p] > 0)

    def active(self, question: Question) -> list[str]:
        """Players still able to act: dealt in, not folded, not all-in; seat order."""
        return [p for p in question.live() if self.stacks[p] > 0]

    def all_in(self, question: Question) -> list[str]:
        """Players still in with no chips behind, seat order."""
        return [p for p in question.live() if self.stacks[p] == 0]

    def legal_inputs(self, player: str) -> list[Offer]:
        """What ``player`` may do now in a betting round, with min and max ``to`` (the handset's bet
        prompt); empty unless it is their turn. Every offer is accepted and nothing else is."""
        self._check_player(player)
        question = self.current
        if self.to_act != player or question is None or question.round is None:
            return []
        return question.round.offers(player, self.stacks[player], self._answerable(question, player))

    def offered_inputs(self, player: str) -> list[Offer]:
        """:meth:`legal_inputs` as a handset or the TV shows them: a call the player's chips cannot cover
        is the same move as their all-in (rules.md Estimation poker 5), so only the all-in is listed."""
        question = self.current
        highest = question.round.highest if question is not None and question.round is not None else 0
        return [o for o in self.legal_inputs(player) if not (o.kind == "call" and o.max_to < highest)]

    def status(self) -> str:
        """What the game is waiting for, in words (for refusal messages and the replay)."""
        question = self.current
        if self._phase is Phase.OVER:
            return "the game is over"
        if self._phase is Phase.WAITING or question is None:
            return "waiting for the host to start question 1"
        if self._phase is Phase.SHOWDOWN:
            return f"question {question.number} is over; waiting for the host to start the next one"
        if self._phase is Phase.RANGES:
            missing = [p for p in question.dealt if p not in question.ranges]
            waiting = f"; no range yet from {', '.join(missing)}" if missing else ""
            return f"question {question.number}: ranges are open until betting starts{waiting}"
        assert question.round is not None
        return f"question {question.number}, betting round {question.round.number}: {self.to_act} to act"

    # -- helpers -----------------------------------------------------------------------------------

    def question_over(self, question: Question) -> bool:
        return question.settled

    def _answerable(self, question: Question, player: str) -> bool:
        """Whether another player still in could put in more than the highest bet (so a raise by
        ``player`` can be answered)."""
        betting = question.round
        assert betting is not None
        return any(betting.bet(p) + self.stacks[p] > betting.highest for p in question.live() if p != player)

    def _next_actor(self, question: Question, start: str, include_start: bool) -> str | None:
        """The next player clockwise from ``start`` who can act and still has to (rules.md 7)."""
        betting = question.round
        assert betting is not None
        order = clockwise_from(self.players, start)
        if not include_start:
            order = order[1:]
        active = self.active(question)
        return next((p for p in order if p in active and betting.needs_to_act(p)), None)

    def _open_round(self, question: Question, number: int) -> Round:
        """A new betting round, opened by the question's first actor or the next active player
        clockwise (rules.md 2); nobody to act when at most one player can act (rules.md 7)."""
        question.round = Round(number, question.ante)
        if len(self.active(question)) > 1:
            question.round.to_act = self._next_actor(question, question.first, include_start=True)
        return question.round

    # -- question (host) ---------------------------------------------------------------------------

    def verify_question(self, action: StartQuestion) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.WAITING, Phase.SHOWDOWN)
        if action.ante < 1:
            raise BadAmount(f"ante {action.ante} refused: the ante is at least 1 chip; {self.status()}")

    def question(self, action: StartQuestion) -> None:
        self.verify_question(action)
        self._record(action)
        dealt = tuple(self.holders())
        first = self.next_first()
        put_in: dict[str, int] = {}
        for player in dealt:
            # rules.md 3: a player who cannot pay the ante in full is all-in for what they have.
            put_in[player] = min(action.ante, self.stacks[player])
            self.stacks[player] -= put_in[player]
        self.questions.append(
            Question(
                number=len(self.questions) + 1,
                text=action.question,
                answer=action.answer,
                hints=action.hints,
                ante=action.ante,
                first=first,
                dealt=dealt,
                put_in=put_in,
            )
        )
        self._advance()

    # -- range (each player, before betting) -------------------------------------------------------

    def verify_range(self, action: EnterRange) -> None:
        player = action.player
        self._check_player(player)
        if self._phase in (Phase.BETTING, Phase.SHOWDOWN):
            raise RangesLocked(
                f"{player}'s range [{action.low}, {action.high}] refused: ranges locked when betting "
                f"round 1 started (rules.md Estimation poker 4); {self.status()}"
            )
        self._require_phase(action, Phase.RANGES)
        question = self._open()
        if player not in question.dealt:
            raise NotInQuestion(f"{player} has no chips and is out of question {question.number}")
        if action.low > action.high:
            raise ReversedRange(
                f"{player}'s range refused: the low end {action.low} is above the high end {action.high}"
            )

    def range(self, action: EnterRange) -> None:
        self.verify_range(action)
        self._record(action)
        self._open().ranges[action.player] = Range(action.low, action.high)
        self._advance()

    # -- betting (host starts round 1) -------------------------------------------------------------

    def verify_betting(self, action: StartBetting) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.RANGES)
        question = self._open()
        if not question.ranges:
            raise NoRanges(f"betting cannot start on question {question.number}: nobody has entered a range")

    def betting(self, action: StartBetting) -> None:
        self.verify_betting(action)
        self._record(action)
        question = self._open()
        # rules.md 4: a player with no range when betting round 1 starts is folded.
        question.folded.update(p for p in question.dealt if p not in question.ranges)
        self._open_round(question, 1)
        self._advance()

    # -- the betting actions (player to act) -------------------------------------------------------

    def _verify_turn(self, action: Action, to: object = None) -> None:
        player = action.player
        self._check_player(player)
        self._require_phase(action, Phase.BETTING)
        question = self._open()
        if player not in question.dealt:
            raise NotInQuestion(f"{player} has no chips and is out of question {question.number}")
        if player in question.folded:
            raise NotInQuestion(f"{action.kind} from {player} refused: {player} has folded this question")
        if self.stacks[player] == 0:
            raise NotYourTurn(f"{action.kind} from {player} refused: {player} is all-in; {self.status()}")
        if self.to_act != player:
            raise NotYourTurn(f"{action.kind} from {player} refused: {self.status()}")
        betting = question.round
        assert betting is not None
        betting.verify(action.kind, player, to, self.stacks[player], self._answerable(question, player))

    def _put(self, player: str, to: int) -> None:
        question = self._open()
        assert question.round is not None
        moved = question.round.put(player, to)
        self.stacks[player] -= moved
        question.put_in[player] += moved
        self._after_action(player)

    def _after_action(self, player: str) -> None:
        question = self._open()
        assert question.round is not None
        question.round.to_act = self._next_actor(question, player, include_start=False)
        self._advance()

    def verify_check(self, action: Check) -> None:
        self._verify_turn(action)

    def check(self, action: Check) -> None:
        self.verify_check(action)
        self._record(action)
        round_ = self._open().round
        assert round_ is not None
        self._put(action.player, round_.bet(action.player))

    def verify_call(self, action: Call) -> None:
        self._verify_turn(action)

    def call(self, action: Call) -> None:
        self.verify_call(action)
        self._record(action)
        round_ = self._open().round
        assert round_ is not None
        self._put(action.player, round_.call_to(action.player, self.stacks[action.player]))

    def verify_allin(self, action: AllIn) -> None:
        self._verify_turn(action)

    def allin(self, action: AllIn) -> None:
        self.verify_allin(action)
        self._record(action)
        round_ = self._open().round
        assert round_ is not None
        self._put(action.player, round_.bet(action.player) + self.stacks[action.player])

    def verify_bet(self, action: Bet) -> None:
        self._verify_turn(action, action.to)

    def bet(self, action: Bet) -> None:
        self.verify_bet(action)
        self._record(action)
        self._put(action.player, action.to)

    def verify_raise(self, action: Raise) -> None:
        self._verify_turn(action, action.to)

    def raise_(self, action: Raise) -> None:
        """Apply a raise (kind ``raise``; see :meth:`_method` for the name)."""
        self.verify_raise(action)
        self._record(action)
        self._put(action.player, action.to)

    def verify_fold(self, action: Fold) -> None:
        self._verify_turn(action)

    def fold(self, action: Fold) -> None:
        self.verify_fold(action)
        self._record(action)
        question = self._open()
        assert question.round is not None
        question.folded.add(action.player)
        question.round.fold(action.player)
        self._after_action(action.player)

    # -- reveal (after the showdown) ---------------------------------------------------------------

    def verify_reveal(self, action: Reveal) -> None:
        """After a question's showdown (also after the game ended on it) a player whose range was not
        shown may show it; it changes nothing else (rules.md 11)."""
        player = action.player
        self._check_player(player)
        question = self.current
        if question is None or not question.settled:
            raise WrongPhase(f"reveal from {player} refused: ranges are shown after the showdown; {self.status()}")
        if player not in question.ranges:
            raise NothingToReveal(f"{player} has no range on question {question.number} to show")
        if player in question.shown_ranges():
            raise NothingToReveal(f"{player}'s range on question {question.number} is already shown")

    def reveal(self, action: Reveal) -> None:
        self.verify_reveal(action)
        self._record(action)
        question = self.current
        assert question is not None
        question.shown_by_choice.append(action.player)
        self._advance()

    # -- end (host) --------------------------------------------------------------------------------

    def verify_end(self, action: EndGame) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.WAITING, Phase.SHOWDOWN)

    def end(self, action: EndGame) -> None:
        self.verify_end(action)
        self._record(action)
        most = max(self.stacks.values())
        self._winners = [p for p in self.players if self.stacks[p] == most]
        self.ending = Ending.STOPPED
        self._advance()

    # -- the phase machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """The one place the phase moves on: next round, run-out, fold-to-one, showdown, game end."""
        question = self.current
        if question is not None and question.round is not None and not question.settled:
            self._play_on(question)
            if question.settled and len(self.holders()) == 1 and self.ending is None:
                self._winners, self.ending = self.holders(), Ending.LAST_WITH_CHIPS
        self._phase = self._next_phase()

    def _play_on(self, question: Question) -> None:
        while not question.settled:
            betting = question.round
            assert betting is not None
            if len(question.live()) == 1:
                self._settle(question)  # rules.md 8: everyone else folded
            elif self._run_out(question):
                self._settle(question)  # rules.md 7: nobody can bet any more
            elif betting.to_act is not None:
                return
            elif betting.number == ROUNDS:
                self._settle(question)  # round 4 is over: the showdown
            else:
                question.revealed = betting.number  # hint 1, hint 2, then the answer
                self._open_round(question, betting.number + 1)

    def _run_out(self, question: Question) -> bool:
        """rules.md 7: at most one player can still act (the rest folded or all-in) and nobody faces
        a bet; the remaining hints and the answer are shown and the question goes to showdown."""
        betting = question.round
        assert betting is not None
        active = self.active(question)
        return len(active) <= 1 and all(betting.owed(p) == 0 for p in active)

    def _next_phase(self) -> Phase:
        question = self.current
        if self.ending is not None:
            return Phase.OVER
        if question is None:
            return Phase.WAITING
        if question.settled:
            return Phase.SHOWDOWN
        return Phase.RANGES if question.round is None else Phase.BETTING

    def _settle(self, question: Question) -> None:
        """The question is over: everything is shown and the pots are paid (rules.md 7-10)."""
        assert question.round is not None
        question.round.to_act = None
        question.revealed = REVEALS
        question.outcome = settle(question, self.stacks, self.players)

    # -- views -------------------------------------------------------------------------------------

    def totals(self) -> Totals:
        return Totals("Chips", "chips", {p: self.stacks[p] for p in self.players})

    def state(self) -> JSON:
        return {
            "stacks": dict(self.stacks),
            "questions": [q.snapshot() for q in self.questions],
            "ending": self.ending.value if self.ending else None,
        }
