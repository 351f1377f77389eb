"""Estimation poker for the whole room, 2 to 40 players (rules.md Estimation poker 13-15).

The game is a composition of ordinary games: every table is a :class:`~.engine.PokerEngine`, and this
engine deals the room into tables, routes each input to its player's table and keeps what only the room
knows (the room's seat order, its question, the final table, the end and the placement's chips).

* 8 players or fewer: one table, the ordinary game with the game's options (``first`` included), every
  input passed on as it is (rules.md Estimation poker 1-12, unchanged; no tables in the results).
* Above 8: the players are dealt round robin in seat order into ceil(N / 8) tables
  (:func:`deal_tables`; rules.md Estimation poker 13). Each table plays every card at the same time with
  the same ante as its own game: its pots, turns, first-actor rotation (its first seat opens its first
  question), odd chips and knock-outs. Ranges lock at every table together (the host's one start of
  betting); the question ends when every table's hand has ended. A table left with one player plays no
  more hands: the player waits with their chips. ``first`` is not an option of a room game.
* The final table (rules.md Estimation poker 14): at the start of a question, when at most 8 players in
  the room have chips, they all sit at table 1 in room seat order for the rest of the game, a new
  ordinary game that sits down with the chips they have; its first seat opens its first question.
* The end (rules.md Estimation poker 15): one player with all the chips wins; stopped or out of cards,
  the most chips wins and ties share. Each question keeps every player's chips from before its ante,
  for the placement across the room (rules.md Quiz night 2).

The room's log holds the same inputs as the ordinary game's; playing it again rebuilds the state
exactly (tables, final table and all).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from appliance.errors import ConfigError
from appliance.games.base import JSON, Action, Engine, Questions, Totals, Views, WrongPhase
from appliance.games.poker import room_views
from appliance.games.poker.actions import (
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
from appliance.games.poker.betting import Offer
from appliance.games.poker.engine import PokerEngine, poker_options
from appliance.games.poker.refusals import (
    BadAmount,
    NoRanges,
    NothingToReveal,
    NotInQuestion,
    RangesLocked,
    TableHandOver,
    WaitingAlone,
)
from appliance.games.poker.schedule import AnteSchedule, ante_at
from appliance.games.poker.state import Ending, Phase, Question

TABLE_SEATS = 8
"""The most players at one table; a game of more is played at room tables (rules.md Estimation poker 13)."""
MAX_SEATS = 40
"""The most players of a game of estimation poker (rules.md "The room" 1)."""


def deal_tables(players: Sequence[str], seats: int = TABLE_SEATS) -> tuple[tuple[str, ...], ...]:
    """``players`` dealt round robin in seat order into ceil(N / ``seats``) tables: with 3 tables, seat 1
    to table 1, seat 2 to table 2, seat 3 to table 3, seat 4 to table 1 again (rules.md Estimation
    poker 13); a table's seat order is the room's restricted to it."""
    count = max(1, -(-len(players) // seats))
    return tuple(tuple(players[index::count]) for index in range(count))


@dataclass
class RoomQuestion:
    """One question of the room: who sat where when it started and each playing table's hand."""

    number: int
    before: dict[str, int]
    """Every room player's chips when the question started, before its ante (seat order)."""
    tables: tuple[tuple[str, ...], ...]
    """The tables as seated for it (table 1 first): the players with chips, seat order, a waiting
    single player included."""
    hands: dict[int, Question]
    """Table number (1 first) -> that table's hand; only tables of two or more players play one."""
    final: bool
    """Whether it was played at the final table."""

    @property
    def ante(self) -> int:
        """The question's ante, the same at every table."""
        return next(iter(self.hands.values())).ante

    @property
    def dealt(self) -> tuple[str, ...]:
        """Players with chips when it started, room seat order: everyone else is out."""
        return tuple(p for p, chips in self.before.items() if chips > 0)

    @property
    def settled(self) -> bool:
        """The question is over: the hand has ended at every table (rules.md Estimation poker 13)."""
        return all(hand.settled for hand in self.hands.values())

    def table_of(self, player: str) -> int | None:
        """The number of the table ``player`` sat at for this question (None: out)."""
        return next((n for n, seated in enumerate(self.tables, 1) if player in seated), None)

    def hand_of(self, player: str) -> Question | None:
        """The hand ``player`` was dealt into on this question (None: out or waiting)."""
        number = self.table_of(player)
        return None if number is None else self.hands.get(number)

    def snapshot(self) -> JSON:
        return {
            "number": self.number,
            "before": dict(self.before),
            "tables": [list(seated) for seated in self.tables],
            "hands": {str(n): hand.snapshot() for n, hand in self.hands.items()},
            "final": self.final,
        }


class RoomPokerEngine(Questions[RoomQuestion], Engine):
    """Estimation poker for 2 to 40 players: one ordinary table up to 8, room tables above (module doc)."""

    game: ClassVar[str] = "poker"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_SEATS
    defaults: ClassVar[Mapping[str, Any]] = PokerEngine.defaults
    views: ClassVar[Views] = room_views
    actions: ClassVar[Mapping[str, type[Action]]] = PokerEngine.actions
    _phase: Phase

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        self.tables: list[PokerEngine] = [PokerEngine(seats, self.options) for seats in deal_tables(self.players)]
        self.final = False
        """Whether the final table has formed (rules.md Estimation poker 14)."""
        self.questions: list[RoomQuestion] = []
        self.ending: Ending | None = None
        self._phase = Phase.WAITING

    @property
    def room(self) -> bool:
        """Whether the game is played at room tables (more than 8 players: rules.md Estimation poker 13)."""
        return len(self.players) > TABLE_SEATS

    def validate_options(self, options: JSON) -> JSON:
        if len(self.players) > TABLE_SEATS and "first" in options:
            raise ConfigError(
                f"poker option first is for a game of {TABLE_SEATS} players or fewer: at room tables each table's "
                "first seat opens its first question (rules.md Estimation poker 13)"
            )
        checked = poker_options(options, self.players)
        if len(self.players) > TABLE_SEATS:
            del checked["first"]
        return checked

    @functools.cached_property
    def schedule(self) -> AnteSchedule:
        """The ante schedule (every table plays the same ante: rules.md Estimation poker 13)."""
        return self.tables[0].schedule

    def ante_for_next(self, elapsed_seconds: float) -> int:
        """The ante for the next question (see :meth:`PokerEngine.ante_for_next`)."""
        return ante_at(self.schedule, elapsed_seconds, len(self.questions))

    # -- where everyone sits ------------------------------------------------------------------------

    @property
    def stacks(self) -> dict[str, int]:
        """Every room player's chips, seat order (0: out)."""
        seated = {p: chips for table in self.tables for p, chips in table.stacks.items()}
        return {p: seated.get(p, 0) for p in self.players}

    def holders(self) -> list[str]:
        """Players with chips, room seat order."""
        return [p for p, chips in self.stacks.items() if chips > 0]

    def table_number(self, player: str) -> int | None:
        """The number (1 first) of the table that seats ``player`` now; None once out before the final
        table formed."""
        return next((n for n, table in enumerate(self.tables, 1) if player in table.players), None)

    def table_of(self, player: str) -> PokerEngine | None:
        number = self.table_number(player)
        return None if number is None else self.tables[number - 1]

    def hand(self, player: str) -> Question | None:
        """``player``'s hand on the current question (None: no question yet, out or waiting)."""
        question = self.current
        return None if question is None else question.hand_of(player)

    @property
    def to_act(self) -> str | None:
        """The player to act at the table the TV shows (:meth:`featured`); the only table up to 8 players.
        Every table's is :meth:`actors`."""
        return self.tables[self.featured() - 1].to_act

    def actors(self) -> dict[int, str]:
        """Table number -> the player to act there now (betting tables only)."""
        return {n: table.to_act for n, table in enumerate(self.tables, 1) if table.to_act is not None}

    def featured(self) -> int:
        """The table the TV shows: the first whose hand is still being played, else the first that played
        the current question, else table 1."""
        question = self.current
        if question is None:
            return 1
        unsettled = [n for n, hand in question.hands.items() if not hand.settled]
        return min(unsettled or list(question.hands) or [1])

    def legal_inputs(self, player: str) -> list[Offer]:
        """What ``player`` may do now at their table (empty unless it is their turn there)."""
        self._check_player(player)
        table = self.table_of(player)
        if table is None or self.hand(player) is None:
            return []
        return table.legal_inputs(player)

    def offered_inputs(self, player: str) -> list[Offer]:
        table = self.table_of(player)
        if table is None or self.hand(player) is None:
            return []
        return table.offered_inputs(player)

    def status(self) -> str:
        question = self.current
        if not self.room and self._phase is not Phase.OVER:
            return self.tables[0].status()
        if self._phase is Phase.OVER:
            return "the game is over"
        if question is None:
            return "waiting for the host to start question 1"
        if self._phase is Phase.SHOWDOWN:
            return f"question {question.number} is over at every table; waiting for the host to start the next one"
        if self._phase is Phase.RANGES:
            missing = [p for n, hand in question.hands.items() for p in hand.dealt if p not in hand.ranges]
            waiting = f"; no range yet from {', '.join(missing)}" if missing else ""
            return f"question {question.number}: ranges are open at every table until betting starts{waiting}"
        tables = "; ".join(
            f"table {n}: " + ("hand over" if hand.settled else f"{self.tables[n - 1].to_act} to act")
            for n, hand in question.hands.items()
        )
        return f"question {question.number}, betting: {tables}"

    def question_over(self, question: RoomQuestion) -> bool:
        return question.settled

    # -- routing a player's input to their table --------------------------------------------------------

    def _table_for(self, action: Action) -> PokerEngine:
        """The table ``action`` applies at, after the room's own refusals (rules.md Estimation poker 13):
        a player who is out or waits alone, a hand that is over while other tables play theirs."""
        player = action.player
        self._check_player(player)
        if not self.room:
            return self.tables[0]
        if self._phase is Phase.OVER and not isinstance(action, Reveal):
            self._require_phase(action)  # nothing but a reveal after the end (rules.md Estimation poker 12)
        question = self.current
        number = None if question is None else question.table_of(player)
        if question is not None:
            if number is None:
                if isinstance(action, Reveal):
                    raise NothingToReveal(f"{player} has no range on question {question.number} to show")
                raise NotInQuestion(f"{player} has no chips and is out of question {question.number}")
            if number not in question.hands:
                if isinstance(action, Reveal):
                    raise NothingToReveal(f"{player} played no hand on question {question.number}: nothing to show")
                raise WaitingAlone(
                    f"{action.kind} from {player} refused: {player} is alone at table {number}, which plays no "
                    "more hands; they keep their chips and wait (rules.md Estimation poker 13)"
                )
        if isinstance(action, EnterRange):
            if self._phase in (Phase.BETTING, Phase.SHOWDOWN):
                raise RangesLocked(
                    f"{player}'s range [{action.low}, {action.high}] refused: ranges locked at every table when "
                    f"betting started (rules.md Estimation poker 4); {self.status()}"
                )
            self._require_phase(action, Phase.RANGES)
        elif isinstance(action, Reveal):
            if question is None or not question.settled:
                raise WrongPhase(f"reveal from {player} refused: ranges are shown after the showdown; {self.status()}")
        else:
            self._require_phase(action, Phase.BETTING)
        assert question is not None and number is not None
        if question.hands[number].settled and not isinstance(action, Reveal):
            raise TableHandOver(
                f"{action.kind} from {player} refused: the hand at table {number} is over; waiting for the other "
                f"tables ({self.status()})"
            )
        return self.tables[number - 1]

    def _verify_at_table(self, action: Action) -> None:
        self._table_for(action).verify(action)

    def _play_at_table(self, action: Action) -> None:
        table = self._table_for(action)
        table.verify(action)
        self._record(action)
        table.apply(action)
        self._advance()

    def verify_range(self, action: EnterRange) -> None:
        self._verify_at_table(action)

    def range(self, action: EnterRange) -> None:
        self._play_at_table(action)

    def verify_check(self, action: Check) -> None:
        self._verify_at_table(action)

    def check(self, action: Check) -> None:
        self._play_at_table(action)

    def verify_call(self, action: Call) -> None:
        self._verify_at_table(action)

    def call(self, action: Call) -> None:
        self._play_at_table(action)

    def verify_fold(self, action: Fold) -> None:
        self._verify_at_table(action)

    def fold(self, action: Fold) -> None:
        self._play_at_table(action)

    def verify_allin(self, action: AllIn) -> None:
        self._verify_at_table(action)

    def allin(self, action: AllIn) -> None:
        self._play_at_table(action)

    def verify_bet(self, action: Bet) -> None:
        self._verify_at_table(action)

    def bet(self, action: Bet) -> None:
        self._play_at_table(action)

    def verify_raise(self, action: Raise) -> None:
        self._verify_at_table(action)

    def raise_(self, action: Raise) -> None:
        """Apply a raise (kind ``raise``, a Python keyword: see :meth:`Engine._method`)."""
        self._play_at_table(action)

    def verify_reveal(self, action: Reveal) -> None:
        self._verify_at_table(action)

    def reveal(self, action: Reveal) -> None:
        self._play_at_table(action)

    # -- the host ------------------------------------------------------------------------------------

    def _verify_host(self, action: Action, *phases: Phase) -> bool:
        """Up to 8 players the one table verifies the host's ``action`` (False: nothing more to check); at
        room tables the room checks that the host takes it in one of ``phases`` (True: the caller checks on)."""
        if not self.room:
            self.tables[0].verify(action)
            return False
        self._require_host(action)
        self._require_phase(action, *phases)
        return True

    def verify_question(self, action: StartQuestion) -> None:
        if self._verify_host(action, Phase.WAITING, Phase.SHOWDOWN) and action.ante < 1:
            raise BadAmount(f"ante {action.ante} refused: the ante is at least 1 chip; {self.status()}")

    def question(self, action: StartQuestion) -> None:
        """Every table with two or more players starts the card with the same ante; before that, the
        final table forms if at most 8 players have chips (rules.md Estimation poker 13 and 14)."""
        self.verify_question(action)
        self._record(action)
        before = self.stacks
        holders = self.holders()
        if self.room and not self.final and len(holders) <= TABLE_SEATS:
            self.tables = [PokerEngine(holders, self.options, stacks={p: before[p] for p in holders})]
            self.final = True
        seated: list[tuple[str, ...]] = []
        hands: dict[int, Question] = {}
        for number, table in enumerate(self.tables, 1):
            seated.append(tuple(table.holders()))
            if len(seated[-1]) > 1:  # a single player waits (rules.md Estimation poker 13)
                table.apply(action)
                assert table.current is not None
                hands[number] = table.current
        self.questions.append(RoomQuestion(len(self.questions) + 1, before, tuple(seated), hands, self.final))
        self._advance()

    def verify_betting(self, action: StartBetting) -> None:
        if not self._verify_host(action, Phase.RANGES):
            return
        for number, hand in self._open().hands.items():
            if not hand.ranges:
                raise NoRanges(
                    f"betting cannot start on question {hand.number}: nobody at table {number} has entered a range"
                )

    def betting(self, action: StartBetting) -> None:
        """Ranges lock at every table together (rules.md Estimation poker 4 and 13)."""
        self.verify_betting(action)
        self._record(action)
        for number in self._open().hands:
            self.tables[number - 1].apply(action)
        self._advance()

    def verify_end(self, action: EndGame) -> None:
        self._verify_host(action, Phase.WAITING, Phase.SHOWDOWN)

    def end(self, action: EndGame) -> None:
        """Stopped or out of cards: the most chips in the room wins, ties share (rules.md Estimation poker 15)."""
        self.verify_end(action)
        self._record(action)
        for table in self.tables:
            if not table.finished:
                table.apply(action)
        stacks = self.stacks
        most = max(stacks.values())
        self._winners = [p for p in self.players if stacks[p] == most]
        self.ending = Ending.STOPPED
        self._advance()

    # -- the phase machine -----------------------------------------------------------------------------

    def _advance(self) -> None:
        """The one place the room's phase moves on: a question ends when every table's hand has; the game
        when one player has all the chips (rules.md Estimation poker 15)."""
        question = self.current
        if question is not None and question.settled and self.ending is None:
            holders = self.holders()
            if len(holders) == 1:
                self._winners, self.ending = holders, Ending.LAST_WITH_CHIPS
        self._phase = self._next_phase()

    def _next_phase(self) -> Phase:
        question = self.current
        if self.ending is not None:
            return Phase.OVER
        if question is None:
            return Phase.WAITING
        if question.settled:
            return Phase.SHOWDOWN
        started = any(hand.round is not None for hand in question.hands.values())
        return Phase.BETTING if started else Phase.RANGES

    # -- views -----------------------------------------------------------------------------------------

    def totals(self) -> Totals:
        return Totals("Chips", "chips", self.stacks)

    def state(self) -> JSON:
        return {
            "stacks": self.stacks,
            "final": self.final,
            "tables": [table.snapshot() for table in self.tables],
            "questions": [q.snapshot() for q in self.questions],
            "ending": self.ending.value if self.ending else None,
        }
