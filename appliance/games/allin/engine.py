"""The All In rules engine (seed 003; product decisions: rules.md "All In" 1-6).

A question goes: the host deals a card (phase ``card``), the reader picks a statement, answers it
secretly and may play their exclusion card (``reading``), then every bettor secretly splits ALL
their chips between True and False (``betting``). When the last split is in, the splits and the
answer are revealed together and chips on the wrong side leave the game; chips are never created.
The host may close the splits early (a time-out, or a quizmaster who stops waiting for a handset
that is gone): the bettors still missing sit the question out with all their chips, and the reveal
follows at once (the product's decision, :class:`~appliance.games.allin.actions.Close`).
The game ends when at most one player has chips (rules.md All In 6), or when the host ends it
because the deck ran out (most chips wins, ties share).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from appliance.errors import ConfigError, IllegalAction
from appliance.games import fields
from appliance.games.allin import views
from appliance.games.allin.actions import STATEMENTS, Close, EndGame, Read, Split, StartQuestion
from appliance.games.allin.state import Ending, Phase, Question
from appliance.games.base import JSON, Action, Engine, NotYourTurn, Questions, Totals, Views

DEFAULT_CHIPS = 15
"""Chips each player starts with (rules.md All In 1: 90 chips in 6 colours)."""

MAX_SEATS = 40
"""The most players one All In game seats (rules.md The room 1: the box's 6 colours do not bind it)."""

DEFAULT_MAX_PLAYERS = MAX_SEATS
"""The optional ``max_players`` cap (2-40): the room's size unless a quizmaster caps it."""


class BadPick(IllegalAction):
    """The reader picked a statement the card does not have."""


class BadExclusion(IllegalAction):
    """The reader's exclusion breaks rules.md All In 1 or 4."""


class NotABettor(IllegalAction):
    """A split from the reader, the excluded player or a player with no chips."""


class BadSplit(IllegalAction):
    """A split that does not place exactly all the bettor's chips (rules.md All In 5)."""


class AlreadySubmitted(IllegalAction):
    """A second split from the same bettor on one question."""

    code: ClassVar[str] = "already_in"


class AllInEngine(Questions[Question], Engine):
    """All In for 2 to 40 players (rules.md The room 1; options ``chips`` 15 and an optional cap ``max_players``)."""

    game: ClassVar[str] = "allin"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_SEATS
    defaults: ClassVar[Mapping[str, Any]] = {"chips": DEFAULT_CHIPS, "max_players": DEFAULT_MAX_PLAYERS}
    views: ClassVar[Views] = views
    _phase: Phase
    actions: ClassVar[Mapping[str, type[Action]]] = {
        record.kind: record for record in (StartQuestion, Read, Split, Close, EndGame)
    }

    def __init__(self, players: Sequence[str], options: Mapping[str, object] | None = None) -> None:
        super().__init__(players, options)
        self.chips: dict[str, int] = {p: self.options["chips"] for p in self.players}
        self.exclusion_used: dict[str, int] = {}
        """Who has played their one exclusion card, and in which question (rules.md All In 1)."""
        self.questions: list[Question] = []
        self.ending: Ending | None = None
        self._phase = Phase.CARD

    def validate_options(self, options: JSON) -> JSON:
        """``chips`` (whole, at least 1; default 15) and an optional cap ``max_players`` (2-40; default 40)."""
        unknown = sorted(set(options) - {"chips", "max_players"})
        if unknown:
            raise ConfigError(f"unknown All In option(s) {', '.join(unknown)}; known: chips, max_players")
        chips = options.get("chips", DEFAULT_CHIPS)
        fields.whole(chips, "All In option chips must be a whole number of at least 1", low=1, error=ConfigError)
        most = options.get("max_players", DEFAULT_MAX_PLAYERS)
        fields.whole(most, f"All In option max_players must be 2 to {MAX_SEATS}", low=2, high=MAX_SEATS,
                     error=ConfigError)
        if len(self.players) > most:
            raise ConfigError(f"All In is set up for at most {most} players, got {len(self.players)}")
        return {"chips": chips, "max_players": most}

    # -- state queries -----------------------------------------------------------------------------

    def next_reader(self) -> str:
        """Reader of the next question: one seat clockwise each question, players with no chips
        included (rules.md All In 2); the first seat reads first."""
        return self.players[len(self.questions) % len(self.players)]

    def potential_bettors(self, reader: str) -> list[str]:
        """Players with chips other than ``reader``, in seat order: who bets unless excluded."""
        return [p for p in self.players if p != reader and self.chips[p] > 0]

    def exclusion_candidates(self) -> list[str]:
        """Whom the reader may exclude now (rules.md All In 1 and 4), asked of :meth:`verify_read`."""
        question = self.open_question()
        if question is None or self._phase is not Phase.READING:
            return []
        reader = question.reader
        return [p for p in self.players if p != reader and self.can(Read(reader, 0, True, exclude=p))]

    def total_chips(self) -> int:
        return sum(self.chips.values())

    def question_over(self, question: Question) -> bool:
        return question.revealed

    def status(self) -> str:
        """What the game is waiting for, in words (for refusal messages and the replay)."""
        question = self.current
        if self._phase is Phase.OVER:
            return "the game is over"
        if self._phase is Phase.CARD:
            return f"waiting for card {len(self.questions) + 1}"
        assert question is not None
        if self._phase is Phase.READING:
            return f"question {question.number} is waiting for {question.reader}'s read"
        return f"question {question.number} is waiting for splits from {', '.join(question.waiting_for)}"

    # -- card (host) -------------------------------------------------------------------------------

    def verify_card(self, action: StartQuestion) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.CARD)

    def card(self, action: StartQuestion) -> None:
        self.verify_card(action)
        self._record(action)
        self.questions.append(Question(len(self.questions) + 1, self.next_reader(), action.statements))
        self._advance()

    # -- read (the reader) -------------------------------------------------------------------------

    def verify_read(self, action: Read) -> None:
        self._check_player(action.player)
        self._require_phase(action, Phase.READING)
        question = self._open()
        if action.player != question.reader:
            raise NotYourTurn(
                f"{action.player} cannot answer question {question.number}: {question.reader} is the reader"
            )
        if not 0 <= action.pick < STATEMENTS:
            raise BadPick(f"pick {action.pick} refused: the card's statements are numbered 0 to {STATEMENTS - 1}")
        if action.exclude is not None:
            self._verify_exclusion(question, action.exclude)

    def _verify_exclusion(self, question: Question, target: str) -> None:
        self._check_player(target)
        reader = question.reader
        if target == reader:
            raise BadExclusion(f"{reader} cannot exclude themselves from question {question.number}")
        if reader in self.exclusion_used:
            raise BadExclusion(
                f"{reader} already played their exclusion card on question {self.exclusion_used[reader]}; "
                "one exclusion per player per game"
            )
        if self.chips[target] == 0:
            raise BadExclusion(f"{self.named(target)} has no chips left and does not bet, so cannot be excluded")
        if len(self.potential_bettors(reader)) == 1:
            raise BadExclusion(
                f"excluding {self.named(target)} would leave nobody to bet on question {question.number} "
                "(rules.md All In 4)"
            )

    def read(self, action: Read) -> None:
        self.verify_read(action)
        self._record(action)
        question = self._open()
        question.pick, question.answer, question.excluded = action.pick, action.answer, action.exclude
        if action.exclude is not None:
            self.exclusion_used[question.reader] = question.number
        question.bettors = tuple(p for p in self.potential_bettors(question.reader) if p != action.exclude)
        self._advance()

    # -- split (each bettor) -----------------------------------------------------------------------

    def verify_split(self, action: Split) -> None:
        player = action.player
        self._check_player(player)
        self._require_phase(action, Phase.BETTING)
        question = self._open()
        if player == question.reader:
            raise NotABettor(f"{player} is the reader of question {question.number} and does not bet")
        if player == question.excluded:
            raise NotABettor(f"{player} is excluded from question {question.number} by {question.reader}")
        if player not in question.bettors:
            raise NotABettor(f"{player} has no chips left and does not bet")
        if player in question.splits:
            raise AlreadySubmitted(f"{player} has already split their chips on question {question.number}")
        if action.on_true < 0 or action.on_false < 0:
            raise BadSplit(
                f"{player}'s split {action.on_true} True / {action.on_false} False refused: no side can be negative"
            )
        if action.on_true + action.on_false != self.chips[player]:
            raise BadSplit(
                f"{player} must place all {self.chips[player]} chips; {action.on_true} on True + "
                f"{action.on_false} on False = {action.on_true + action.on_false}"
            )

    def split(self, action: Split) -> None:
        self.verify_split(action)
        self._record(action)
        self._open().splits[action.player] = action
        self._advance()

    # -- close (host: stop waiting for splits) --------------------------------------------------------

    def verify_close(self, action: Close) -> None:
        """Only the host, and only while the read or the splits are open: once the last split is in, the
        reveal has happened by itself and the game has moved on, so there is nobody left to close out."""
        self._require_host(action)
        self._require_phase(action, Phase.READING, Phase.BETTING)

    def close(self, action: Close) -> None:
        """The product's decision (rules.md All In is silent on a bettor who never splits): every
        bettor who has not split sits the question out keeping all their chips, as if excluded;
        then the splits that are in are revealed as when the last split is in (rules.md All In 5-6)."""
        self.verify_close(action)
        self._record(action)
        question = self._open()
        # closed while the reader has not read (a reader whose handset is gone): the question passes
        # with no bets and the card goes to the next reader (the product's decision, rules.md is silent)
        question.closed = action.reason
        question.sat_out = tuple(question.waiting_for)
        question.bettors = tuple(p for p in question.bettors if p in question.splits)
        self._advance()

    # -- end (host, deck out) ----------------------------------------------------------------------

    def verify_end(self, action: EndGame) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.CARD)

    def end(self, action: EndGame) -> None:
        self.verify_end(action)
        self._record(action)
        most = max(self.chips.values())
        self._winners = [p for p in self.players if self.chips[p] == most]
        self.ending = Ending.DECK_OUT
        self._advance()

    # -- the phase machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """The one place the phase moves on; reveals the question once every split is in."""
        question = self.open_question()
        read = question is not None and (question.pick is not None or question.closed is not None)
        if question is not None and read and not question.waiting_for:
            self._reveal(question)
            question = None
        self._phase = self._next_phase(question)

    def _next_phase(self, question: Question | None) -> Phase:
        if self.ending is not None:
            return Phase.OVER
        if question is None:
            return Phase.CARD
        return Phase.READING if question.pick is None else Phase.BETTING

    def _reveal(self, question: Question) -> None:
        """Chips on the wrong side leave the game (rules.md All In 5); then the end check (6)."""
        for player, split in question.splits.items():
            kept = split.on_true if question.answer else split.on_false
            question.lost[player] = self.chips[player] - kept
            self.chips[player] = kept
        question.chips_after = dict(self.chips)
        question.revealed = True
        holders = [p for p in self.players if self.chips[p] > 0]
        if len(holders) == 1:
            self._winners, self.ending = holders, Ending.LAST_WITH_CHIPS
        elif not holders:
            self._winners, self.ending = [question.reader], Ending.NOBODY_WITH_CHIPS

    # -- views -------------------------------------------------------------------------------------

    def legal_inputs(self, player: str) -> JSON | None:
        """What ``player`` may input now, for the session's handset prompt; None when nothing."""
        self._check_player(player)
        question = self.open_question()
        if question is None:
            return None
        if self._phase is Phase.READING and player == question.reader:
            return {
                "input": Read.kind,
                "statements": list(question.statements),
                "picks": list(range(STATEMENTS)),
                "answers": [True, False],
                "exclude": self.exclusion_candidates(),
            }
        if self._phase is Phase.BETTING and player in question.waiting_for:
            return {"input": Split.kind, "total": self.chips[player]}
        return None

    def totals(self) -> Totals:
        return Totals("Chips", "chips", {p: self.chips[p] for p in self.players})

    def state(self) -> JSON:
        return {
            "chips": dict(self.chips),
            "exclusion_used": dict(self.exclusion_used),
            "questions": [q.snapshot() for q in self.questions],
            "ending": self.ending.value if self.ending else None,
        }
