"""The buzzer round engine (the appliance's own mode; product rules: rules.md "Buzzer round" 1-2).

A question goes: the host asks it (``waiting``: buzzers not armed), the quizmaster arms the buzzers
(``armed``), presses come in (``settling``: the flow waits a short window for earlier presses still on
the way), the earliest press answers (``answering``), the quizmaster judges it; right ends the
question, wrong passes to the next press in order (``armed`` again when nobody is in line, so players
who have not pressed yet still may). A press before arming locks that player out of the question
(option ``lockout``, on by default).

Presses are ordered by when they happened (``Press.at``, the handset's stamp corrected to the
appliance clock), not by when they arrived (rules.md Buzzer 2); equal times go by arrival.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from appliance.errors import ConfigError, IllegalAction
from appliance.games import fields
from appliance.games.base import JSON, Action, Engine, Questions, Totals, Views
from appliance.games.buzzer import views
from appliance.games.buzzer.actions import Arm, Close, Declare, EndGame, Judge, Press, StartQuestion
from appliance.games.buzzer.state import Buzz, Phase, Question

MAX_PLAYERS = 256
"""Every handset at the table may buzz: the appliance's largest table (bench/scale.py measures it)."""

MAX_POINTS = 100
"""Points per right or wrong answer are settings (rules.md Buzzer 2), from -100 to 100."""

DEFAULTS: JSON = {"lockout": True, "points_right": 1, "points_wrong": 0}

EARLY_SLACK_MS = 50
"""A press stamped up to this long before the arming counts as pressed at the arming: the handset's clock
estimate can be off by a few ms (a human needs far longer than this to answer the armed buzzer). A stamp
earlier than that is a press before arming, however late it arrived (rules.md Buzzer 1-2): locked out,
or refused with the lock-out off; a forged early stamp cannot make a handset first."""


class LockedOut(IllegalAction):
    """The player pressed before the buzzers were armed and may not buzz on this question."""


class AlreadyBuzzed(IllegalAction):
    """A second press from the same player on one question (one buzz each)."""


class NotArmed(IllegalAction):
    """A press before arming with the lockout switched off: refused, with no lock-out."""


class BuzzerEngine(Questions[Question], Engine):
    """Buzzer round for 2 to 256 players (options ``lockout``, ``points_right``, ``points_wrong``)."""

    game: ClassVar[str] = "buzzer"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_PLAYERS
    defaults: ClassVar[Mapping[str, Any]] = DEFAULTS
    views: ClassVar[Views] = views
    _phase: Phase
    actions: ClassVar[Mapping[str, type[Action]]] = {
        record.kind: record for record in (StartQuestion, Arm, Press, Declare, Judge, Close, EndGame)
    }

    def __init__(self, players: Sequence[str], options: Mapping[str, object] | None = None) -> None:
        super().__init__(players, options)
        self.scores: dict[str, int] = {p: 0 for p in self.players}
        self.questions: list[Question] = []
        self.ended = False
        self._phase = Phase.CLOSED

    def validate_options(self, options: JSON) -> JSON:
        """``lockout`` (true/false, default true), ``points_right`` (default 1) and ``points_wrong``
        (default 0), whole numbers from -100 to 100."""
        unknown = sorted(set(options) - set(DEFAULTS))
        if unknown:
            raise ConfigError(f"unknown buzzer option(s) {', '.join(unknown)}; known: {', '.join(DEFAULTS)}")
        out = {**DEFAULTS, **options}
        if not isinstance(out["lockout"], bool):
            raise ConfigError(f"buzzer option lockout must be true or false, got {out['lockout']!r}")
        for name in ("points_right", "points_wrong"):
            value = out[name]
            fields.whole(value, f"buzzer option {name} must be a whole number from -{MAX_POINTS} to {MAX_POINTS}",
                         low=-MAX_POINTS, high=MAX_POINTS, error=ConfigError)
        return out

    # -- state queries -----------------------------------------------------------------------------

    def question_over(self, question: Question) -> bool:
        return question.closed

    def may_still_buzz(self, question: Question) -> list[str]:
        """Players who have neither pressed nor been locked out of ``question``, in seat order."""
        return [p for p in self.players if not question.buzzed(p) and p not in question.locked_out]

    def legal_inputs(self, player: str) -> JSON | None:
        """``{"input": "press"}`` while ``player`` may still buzz on the open question (armed or not: an
        early press is how a lock-out happens, rules.md Buzzer 1); None otherwise."""
        self._check_player(player)
        question = self.current
        if question is None or question.closed or player not in self.may_still_buzz(question):
            return None
        return {"input": "press"}

    def status(self) -> str:
        question = self.current
        if self._phase is Phase.OVER:
            return "the game is over"
        if self._phase is Phase.CLOSED or question is None:
            return f"waiting for question {len(self.questions) + 1}"
        words = {
            Phase.WAITING: "is waiting to be armed",
            Phase.ARMED: "is armed, nobody in line",
            Phase.SETTLING: "has buzzes settling",
            Phase.ANSWERING: f"is waiting for a judgement of {question.answering}",
        }
        return f"question {question.number} {words[self._phase]}"

    # -- ask, arm (host) ---------------------------------------------------------------------------

    def verify_ask(self, action: StartQuestion) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.CLOSED)

    def ask(self, action: StartQuestion) -> None:
        self.verify_ask(action)
        self._record(action)
        self.questions.append(Question(len(self.questions) + 1, action.question))
        self._advance()

    def verify_arm(self, action: Arm) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.WAITING)

    def arm(self, action: Arm) -> None:
        self.verify_arm(action)
        self._record(action)
        self._open().armed_at = action.at
        self._advance()

    # -- press (each player) -------------------------------------------------------------------------

    def verify_press(self, action: Press) -> None:
        player = action.player
        self._check_player(player)
        self._require_phase(action, Phase.WAITING, Phase.ARMED, Phase.SETTLING, Phase.ANSWERING)
        question = self._open()
        if player in question.locked_out:
            raise LockedOut(f"{player} pressed before the buzzers were armed and is locked out of question "
                            f"{question.number} (rules.md Buzzer 1)")
        if question.buzzed(player):
            raise AlreadyBuzzed(f"{player} has already buzzed on question {question.number}")
        if not self.options["lockout"] and self._early(question, action.at):
            raise NotArmed(f"{player} pressed before the buzzers were armed on question {question.number}")

    @staticmethod
    def _early(question: Question, at: int) -> bool:
        """A press at ``at`` happened before the buzzers of ``question`` were armed (EARLY_SLACK_MS)."""
        return question.armed_at is None or at < question.armed_at - EARLY_SLACK_MS

    def press(self, action: Press) -> None:
        self.verify_press(action)
        self._record(action)
        question = self._open()
        if self._early(question, action.at):
            question.locked_out.append(action.player)  # rules.md Buzzer 1: too early, out for the question
        else:
            assert question.armed_at is not None
            at = max(action.at, question.armed_at)  # a stamp within EARLY_SLACK_MS: pressed at the arming
            question.buzzes[action.player] = Buzz(action.player, at, len(question.buzzes))
        self._advance()

    # -- declare, judge, close (host) ---------------------------------------------------------------

    def verify_declare(self, action: Declare) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.SETTLING)

    def declare(self, action: Declare) -> None:
        self.verify_declare(action)
        self._record(action)
        question = self._open()
        question.answering = question.next_in_line()  # rules.md Buzzer 2: the first is asked to answer
        self._advance()

    def verify_judge(self, action: Judge) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.ANSWERING)

    def judge(self, action: Judge) -> None:
        self.verify_judge(action)
        self._record(action)
        question = self._open()
        player = question.answering
        assert player is not None
        if action.right:
            self.scores[player] += self.options["points_right"]
            question.right, question.answering, question.closed = player, None, True
        else:
            self.scores[player] += self.options["points_wrong"]
            question.wrong.append(player)
            question.answering = question.next_in_line()  # rules.md Buzzer 2: wrong passes to the next
        self._advance()

    def verify_close(self, action: Close) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.WAITING, Phase.ARMED, Phase.SETTLING, Phase.ANSWERING)

    def close(self, action: Close) -> None:
        self.verify_close(action)
        self._record(action)
        question = self._open()
        question.answering, question.closed = None, True
        self._advance()

    # -- end (host, out of questions) ---------------------------------------------------------------

    def verify_end(self, action: EndGame) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.CLOSED)

    def end(self, action: EndGame) -> None:
        self.verify_end(action)
        self._record(action)
        best = max(self.scores.values())
        self._winners = [p for p in self.players if self.scores[p] == best]  # highest total, ties share
        self.ended = True
        self._advance()

    # -- the phase machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """The one place the phase moves on; a question nobody can buzz on any more ends here."""
        question = self.current
        if (
            question is not None
            and not question.closed
            and question.armed_at is not None
            and question.answering is None
            and question.next_in_line() is None
            and not self.may_still_buzz(question)
        ):
            question.closed = True
        self._phase = self._next_phase(question)

    def _next_phase(self, question: Question | None) -> Phase:
        if self.ended:
            return Phase.OVER
        if question is None or question.closed:
            return Phase.CLOSED
        if question.armed_at is None:
            return Phase.WAITING
        if question.answering is not None:
            return Phase.ANSWERING
        return Phase.SETTLING if question.next_in_line() is not None else Phase.ARMED

    # -- views -------------------------------------------------------------------------------------

    def totals(self) -> Totals:
        return Totals("Points", "points", {p: self.scores[p] for p in self.players})

    def state(self) -> JSON:
        return {
            "scores": dict(self.scores),
            "questions": [q.snapshot() for q in self.questions],
            "ended": self.ended,
        }
