"""The sQuizz rules engine (seed 004; product decisions: rules.md "sQuizz" 1-6).

A question goes: the host enters the die the session rolled (phase ``roll``), then deals the card
(``card``); every player but the reader secretly picks an answer A/B/C and one unused bet token
(``answering``). When the last answer is in, the answers are revealed together: a correct answer's
token goes to its owner's pile face down (its value stays hidden), a wrong one is lost. After the
table's number of reads per player the totals are revealed (``over``). The host may close the
answers early (a time-out, or a quizmaster who stops waiting for a handset that is gone): each
answerer still missing is wrong and uses up their lowest unused token, and the reveal follows at
once (the product's decision, :class:`~appliance.games.squizz.actions.Close`).

The room form (option ``readers`` false; the only form above 8 players; docs/rules.md squizz-room): nobody
reads, the box shows every card and rolls the die, every player answers every question, each with bet
tokens 1 to K (option ``tokens``, default 6), and the game has exactly K questions. Scoring and the end are
rules.md sQuizz 5 and 6, as with readers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from appliance.errors import ConfigError, IllegalAction
from appliance.games import fields
from appliance.games.base import JSON, Action, Engine, Questions, Totals, Views
from appliance.games.squizz import views
from appliance.games.squizz.actions import Answer, Close, EndGame, StartQuestion
from appliance.games.squizz.card import LETTERS, TARGETS, DealCard
from appliance.games.squizz.state import Phase, Question
from appliance.games.squizz.table import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    READS,
    ROOM_MAX_PLAYERS,
    ROOM_TOKENS,
    ROOM_TOKENS_HIGH,
    ROOM_TOKENS_LOW,
    TOKENS,
    questions_for,
)

OPTIONS = ("readers", "first_reader", "tokens")


class BadDie(IllegalAction):
    """A die face other than 1, 2 or 3."""


class NotAnAnswerer(IllegalAction):
    """The reader tried to answer their own question."""


class BadAnswer(IllegalAction):
    """An answer other than A, B or C."""


class BadToken(IllegalAction):
    """A bet token the player does not have, or has already used (rules.md sQuizz 5)."""


class AlreadySubmitted(IllegalAction):
    """A second answer from the same player on one question."""

    code: ClassVar[str] = "already_in"


class SquizzEngine(Questions[Question], Engine):
    """sQuizz for 2-8 players or teams with readers (option ``first_reader``, default the first seat), or
    2-40 in the room form (``readers`` false, ``tokens`` 2-12, default 6; docs/rules.md squizz-room)."""

    game: ClassVar[str] = "squizz"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = ROOM_MAX_PLAYERS
    # no ``defaults``: each default depends on the form, and the form on the seats (``readers`` true up to 8,
    # false above; ``tokens`` 6 in the room form only); the set-up page's settings say them (the registry)
    views: ClassVar[Views] = views
    _phase: Phase
    actions: ClassVar[Mapping[str, type[Action]]] = {
        record.kind: record for record in (StartQuestion, DealCard, Answer, Close, EndGame)
    }

    def __init__(self, players: Sequence[str], options: Mapping[str, object] | None = None) -> None:
        super().__init__(players, options)
        self.tokens: dict[str, list[int]] = {p: list(self.token_set) for p in self.players}
        """Each player's unused bet tokens, smallest first."""
        self.pile: dict[str, list[int]] = {p: [] for p in self.players}
        """Tokens each player won, face down in the centre until the end (rules.md sQuizz 5)."""
        self.correct_counts: dict[str, int] = {p: 0 for p in self.players}
        self.questions: list[Question] = []
        self.total_questions = self.options["tokens"] if self.room else questions_for(len(self.players))
        """With readers, the table's reads; in the room form, one question per token (docs/rules.md squizz-room)."""
        self.ended = False
        """True once the host ended the game before every read was played (:class:`EndGame`)."""
        self._phase = Phase.ROLL

    def validate_options(self, options: JSON) -> JSON:
        """With readers (``readers`` true, the default up to 8 players): ``first_reader``, a seated player's
        name (default the first seat; rules.md sQuizz 2). The room form (``readers`` false, the only form
        above 8 players): ``tokens``, 2 to 12 (default 6). An option of the other form, or ``readers`` true
        above 8 players, is a :class:`ConfigError` (docs/rules.md squizz-room)."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ConfigError(f"unknown sQuizz option(s) {', '.join(unknown)}; known: {', '.join(OPTIONS)}")
        seats = len(self.players)
        readers = options.get("readers", seats <= MAX_PLAYERS)
        if not isinstance(readers, bool):
            raise ConfigError(f"sQuizz option readers must be true or false, got {readers!r}")
        if readers and seats > MAX_PLAYERS:
            raise ConfigError(f"sQuizz with readers seats {MIN_PLAYERS} to {MAX_PLAYERS} players, got {seats}: "
                              "above 8 the room form is the only form (readers false or left out)")
        if readers:
            if "tokens" in options:
                raise ConfigError("sQuizz option tokens belongs to the room form (readers false): with readers "
                                  "the tokens follow the player count")
            first = options.get("first_reader", self.players[0])
            if first not in self.players:
                raise ConfigError(f"first_reader {first!r} is not playing (players: {', '.join(self.players)})")
            return {"readers": True, "first_reader": first}
        if "first_reader" in options:
            raise ConfigError("sQuizz option first_reader belongs to the form with readers: in the room form "
                              "nobody reads")
        tokens = fields.whole(options.get("tokens", ROOM_TOKENS),
                              f"sQuizz option tokens must be a whole number from {ROOM_TOKENS_LOW} to "
                              f"{ROOM_TOKENS_HIGH}", low=ROOM_TOKENS_LOW, high=ROOM_TOKENS_HIGH, error=ConfigError)
        return {"readers": False, "tokens": tokens}

    # -- state queries -----------------------------------------------------------------------------

    @property
    def room(self) -> bool:
        """Whether this is the room form: nobody reads (docs/rules.md squizz-room)."""
        return not self.options["readers"]

    @property
    def token_set(self) -> tuple[int, ...]:
        """The bet tokens each player starts with: 1 to the table's highest with readers (rules.md sQuizz 1),
        1 to ``tokens`` in the room form."""
        highest = self.options["tokens"] if self.room else TOKENS[len(self.players)]
        return tuple(range(1, highest + 1))

    @property
    def reads_per_player(self) -> int:
        """How many times each player reads: the table's count; none in the room form."""
        return 0 if self.room else READS[len(self.players)]

    def reader_of(self, number: int) -> str | None:
        """Reader of question ``number`` (from 1): clockwise from the first reader, so each lap of
        ``len(players)`` questions gives everyone one read (rules.md sQuizz 2); None in the room form,
        where the box reads every card."""
        if self.room:
            return None
        first = self.players.index(self.options["first_reader"])
        return self.players[(first + number - 1) % len(self.players)]

    def next_reader(self) -> str | None:
        """Reader of the next question to open; None when every read has been played or nobody reads."""
        if len(self.questions) >= self.total_questions:
            return None
        return self.reader_of(len(self.questions) + 1)

    def scores(self) -> dict[str, int]:
        """Each player's total: the values of their won tokens (public only at the end)."""
        return {p: sum(self.pile[p]) for p in self.players}

    def winners(self) -> list[str]:
        """Most points; tie: more correct answers; still tied: shared (rules.md sQuizz 6)."""
        if not self.finished:
            return []
        scores = self.scores()
        best = max((scores[p], self.correct_counts[p]) for p in self.players)
        return [p for p in self.players if (scores[p], self.correct_counts[p]) == best]

    def question_over(self, question: Question) -> bool:
        return question.revealed

    def status(self) -> str:
        """What the game is waiting for, in words (for refusal messages and the replay)."""
        if self._phase is Phase.OVER:
            return "the game is over"
        if self._phase is Phase.ROLL:
            return f"waiting for the die of question {len(self.questions) + 1} of {self.total_questions}"
        question = self._open()
        if self._phase is Phase.CARD:
            return f"question {question.number} is waiting for its card"
        return f"question {question.number} is waiting for answers from {', '.join(question.waiting_for)}"

    # -- roll (host) -------------------------------------------------------------------------------

    def verify_roll(self, action: StartQuestion) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.ROLL)
        if action.die not in TARGETS:
            raise BadDie(f"die {action.die} refused: the die gives 1 (smallest), 2 (middle) or 3 (largest)")

    def roll(self, action: StartQuestion) -> None:
        self.verify_roll(action)
        self._record(action)
        number = len(self.questions) + 1
        reader = self.reader_of(number)
        answerers = tuple(p for p in self.players if p != reader)
        self.questions.append(Question(number, reader, action.die, answerers))
        self._advance()

    # -- card (host) -------------------------------------------------------------------------------

    def verify_card(self, action: DealCard) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.CARD)

    def card(self, action: DealCard) -> None:
        self.verify_card(action)
        self._record(action)
        self._open().card = action
        self._advance()

    # -- answer (each non-reader) ------------------------------------------------------------------

    def verify_answer(self, action: Answer) -> None:
        player = action.player
        self._check_player(player)
        self._require_phase(action, Phase.ANSWERING)
        question = self._open()
        if player == question.reader:
            raise NotAnAnswerer(f"{player} is the reader of question {question.number} and does not answer")
        if player in question.answers:
            raise AlreadySubmitted(f"{player} has already answered question {question.number}")
        if action.answer not in LETTERS:
            raise BadAnswer(f"answer {action.answer!r} from {player} refused: answer A, B or C")
        if action.token not in self.tokens[player]:
            held = self.token_set
            if action.token in held:
                left = ", ".join(map(str, self.tokens[player]))
                raise BadToken(f"{player} bets token {action.token}: it is used already; left: {left}")
            raise BadToken(f"{player} has no token {action.token}: the tokens are {held[0]} to {held[-1]}")

    def answer(self, action: Answer) -> None:
        self.verify_answer(action)
        self._record(action)
        self._open().answers[action.player] = action
        self.tokens[action.player].remove(action.token)
        self._advance()

    # -- close (host: stop waiting for answers) -------------------------------------------------------

    def verify_close(self, action: Close) -> None:
        """Only the host, and only while answers are open: once the last of them is in, the reveal has
        happened by itself and the game has moved on, so there is nobody left to close out."""
        self._require_host(action)
        self._require_phase(action, Phase.ANSWERING)

    def close(self, action: Close) -> None:
        """The product's decision (rules.md sQuizz is silent on an answerer who never answers): each
        missing answerer is wrong and uses up their lowest unused token, so every player still uses
        every token exactly once over the game (rules.md sQuizz 1 and 5); then the reveal."""
        self.verify_close(action)
        self._record(action)
        question = self._open()
        question.closed = action.reason
        for player in question.waiting_for:
            # a non-reader answers every question with one of their tokens (rules.md sQuizz 1), so one is left
            token = min(self.tokens[player])
            self.tokens[player].remove(token)
            question.missed[player] = token
        self._advance()

    # -- end (host, before every read was played) ---------------------------------------------------

    def verify_end(self, action: EndGame) -> None:
        """Only the host, and only between questions (a question in play is finished or closed first)."""
        self._require_host(action)
        self._require_phase(action, Phase.ROLL)

    def end(self, action: EndGame) -> None:
        self.verify_end(action)
        self._record(action)
        self.ended = True
        self._advance()

    # -- the phase machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """The one place the phase moves on; reveals the question once every answer is in."""
        question = self.open_question()
        if question is not None and question.card is not None and not question.waiting_for:
            self._reveal(question)
        self._phase = self._next_phase()

    def _next_phase(self) -> Phase:
        question = self.open_question()
        if question is None:
            return Phase.OVER if self.ended or len(self.questions) == self.total_questions else Phase.ROLL
        return Phase.CARD if question.card is None else Phase.ANSWERING

    def _reveal(self, question: Question) -> None:
        """Answers revealed together; a correct token joins its owner's pile, a wrong one is lost."""
        assert question.card is not None
        letter = question.correct_letter = question.card.letter_for(question.die)
        answers = question.answers
        question.correct = tuple(p for p in question.answerers if p in answers and answers[p].answer == letter)
        for player in question.correct:
            self.pile[player].append(question.answers[player].token)
            self.correct_counts[player] += 1
        question.revealed = True

    # -- views -------------------------------------------------------------------------------------

    def legal_inputs(self, player: str) -> JSON | None:
        """What ``player`` may input now, for the session's handset prompt; None when nothing."""
        self._check_player(player)
        question = self.open_question()
        if self._phase is Phase.ANSWERING and question is not None and player in question.waiting_for:
            return {"input": Answer.kind, "answers": list(LETTERS), "tokens": list(self.tokens[player])}
        return None

    def totals(self) -> Totals:
        """Token values stay secret until the end (rules.md sQuizz 5): until then the table is the correct
        answers, which are public; the points appear with the final scores."""
        if self.finished:
            return Totals("Points", "points", self.scores())
        return Totals("Correct answers", "correct", {p: self.correct_counts[p] for p in self.players})

    def state(self) -> JSON:
        return {
            "tokens": {p: list(t) for p, t in self.tokens.items()},
            "pile": {p: list(t) for p, t in self.pile.items()},
            "correct_counts": dict(self.correct_counts),
            "questions": [q.snapshot() for q in self.questions],
            "ended": self.ended,
        }
