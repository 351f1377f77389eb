"""The buzzer round at the table (rules.md "Buzzer round"): a buzz prompt on every handset, the settle
window before the first press is declared, and the quizmaster's arm / right / wrong / close commands.

A buzz input reaches :meth:`BuzzerFlow.handle` with ``age_ms``: how long before it arrived the press
happened on the appliance clock, which the hub works out from the handset's press stamp and its
measured clock offset (appliance.edge.clocksync.ClockSync.buzz_data). The press time given to the engine
is then ``now - age_ms``. Without ``age_ms`` (a hub that measures no offsets) the arrival time counts.

The settle window (option ``settle_ms``, default 150 ms): when the first press of a question arrives
the flow waits that long before declaring who answers, so an earlier press still on its way over the
network is ordered before it. Network delays up to the window cannot reorder presses; a press arriving
later joins the line in time order behind whoever is already answering.

The quizmaster's commands (:data:`COMMANDS`, run through :meth:`BuzzerFlow.command`): ``arm``,
``right``, ``wrong``, ``close`` (the question ends, nobody scores). The host's *next* arms a waiting
question, declares at once while buzzes settle, closes an armed question nobody buzzed on, and deals
the next question once one is over; it never judges.

Questions: the set-up's cards in order (a card's ``question`` text is shown on the TV; other cards are
numbered questions the quizmaster reads), at most option ``questions`` of them; with no cards, option
``questions`` (default 10) numbered questions. When they run out the highest total wins, ties share.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from appliance.errors import ConfigError, MalformedInput
from appliance.games.base import HOST, JSON, Action, Engine
from appliance.games.buzzer.actions import Arm, Close, Declare, EndGame, Judge, Press, StartQuestion
from appliance.games.buzzer.engine import BuzzerEngine
from appliance.games.buzzer.state import Phase
from appliance.games.dealt import DealtCard
from appliance.games.fields import whole
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import GameSetup, game_over, info
from firmware import protocol

DEFAULT_SETTLE_MS = 150
"""Longer than the network delays a handset sees on a working Wi-Fi (tests/buzzer: 0-80 ms)."""
MAX_SETTLE_MS = 2000
DEFAULT_QUESTIONS = 10
MAX_QUESTIONS = 500

COMMANDS = ("arm", "right", "wrong", "close")
"""The quizmaster's buzzer commands, as the hub's admin ``{"cmd": ...}`` names."""


class BuzzerFlow(EngineFlow):
    game = "buzzer"
    times_presses = True  # its presses are placed by the handsets' clocks (Session.times_presses)
    engine: BuzzerEngine

    def __init__(self, setup: GameSetup, rng: random.Random, now: float) -> None:
        options = dict(setup.options)
        self.settle_ms = _whole(options.pop("settle_ms", DEFAULT_SETTLE_MS), "settle_ms", 0, MAX_SETTLE_MS)
        count = options.pop("questions", None)
        cards = list(setup.cards)
        if count is not None:
            cards = cards[: _whole(count, "questions", 1, MAX_QUESTIONS)]
        if not cards:
            cards = [DealtCard(f"buzzer-{n}", {}) for n in range(1, (count or DEFAULT_QUESTIONS) + 1)]
        if options.get("answer_seconds", 0) != 0:
            raise ConfigError("the buzzer round has no answer time limit: the quizmaster judges (answer_seconds 0)")
        self.settle_until: float | None = None
        super().__init__(replace(setup, options=options, cards=cards), rng, now)

    def make_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return BuzzerEngine(players, options)

    # -- questions ------------------------------------------------------------------------------------

    def deal(self, card: DealtCard) -> list[Action]:
        text = card.fields.get("question")
        return [StartQuestion(HOST, text[: protocol.MAX_TEXT] if isinstance(text, str) else "")]

    def is_deal(self, action: Action) -> bool:
        return isinstance(action, StartQuestion)

    def ready_for_card(self) -> bool:
        return self.engine.phase == Phase.CLOSED

    def end_of_deck(self) -> Action | None:
        return EndGame(HOST)

    # -- the host and the clock -------------------------------------------------------------------------

    def host_step(self) -> Action | None:
        phase = self.engine.phase
        if phase == Phase.WAITING:
            return Arm(HOST, _ms(self.now))
        if phase == Phase.SETTLING:
            return Declare(HOST)  # the quizmaster does not wait for the settle window
        if phase == Phase.ARMED:
            return Close(HOST)  # nobody (else) buzzed: the quizmaster moves on
        return None  # answering: judge it; closed: the next card is deal_next's

    def advance(self, now: float) -> None:
        self.now = now  # host_step stamps the arming with the time of the command
        super().advance(now)

    def board(self, now: float | None = None) -> JSON:
        """The public view, and once a question is over (the quizmaster's verdict, a close, nobody left)
        its card's answer and the other answers that counted: the TV reveals them only then, so a room
        still buzzing never sees it (docs/decks.md, the buzzer deck)."""
        view = super().board(now)
        question = self.engine.current
        if question is not None and question.closed and 0 < self.dealt <= len(self.cards):
            fields = self.cards[self.dealt - 1].fields
            answer = fields.get("answer")
            if isinstance(answer, str | int | float) and str(answer):
                also = fields.get("alternatives")
                view["answer"] = {"text": str(answer),
                                  "also": [str(a) for a in also] if isinstance(also, list) else []}
        return view

    def automatic(self) -> Action | None:
        if self.engine.phase == Phase.SETTLING and self.settle_ms == 0:
            return Declare(HOST)
        return None

    def apply(self, action: Action, now: float) -> None:
        super().apply(action, now)
        if self.engine.phase != Phase.SETTLING:
            self.settle_until = None
        elif self.settle_until is None:  # the first press in line: wait for earlier ones on their way
            self.settle_until = now + self.settle_ms / 1000

    def deadline(self) -> float | None:
        return self.settle_until if self.engine.phase == Phase.SETTLING else None

    def on_deadline(self, now: float) -> None:
        if self.engine.phase == Phase.SETTLING:
            self.apply(Declare(HOST), now)
        self.settle_until = None

    def restore(self, log: Sequence[JSON], now: float) -> None:
        super().restore(log, now)
        self.settle_until = now + self.settle_ms / 1000 if self.engine.phase == Phase.SETTLING else None

    commands: ClassVar[tuple[str, ...]] = COMMANDS
    """The quizmaster commands the session routes here (Session.flow_commands)."""

    def command(self, name: str, args: Mapping[str, Any], now: float) -> str:
        """Run the quizmaster's ``name`` (one of :data:`COMMANDS`); returns what happened, in words.
        Raises IllegalAction when the rules refuse it now (nothing changes) or MalformedInput."""
        engine = self.engine
        answering = engine.current.answering if engine.current is not None else None
        action: Action
        if name == "arm":
            action = Arm(HOST, _ms(now))
        elif name in ("right", "wrong"):
            action = Judge(HOST, name == "right")
        elif name == "close":
            action = Close(HOST)
        else:
            raise MalformedInput(f"unknown buzzer command {name!r}; known: {', '.join(COMMANDS)}")
        self.apply(action, now)
        if isinstance(action, Judge):
            points = engine.options["points_right" if action.right else "points_wrong"]
            after = engine.current.answering if engine.current is not None else None
            passed = f"; {after} answers next" if after else ""
            return f"{answering}: {name} ({points:+d}){passed}"
        return {"arm": "buzzers armed", "close": "question closed"}[name]

    # -- handsets ---------------------------------------------------------------------------------------

    def parse(self, player: str, kind: str, data: Mapping[str, Any]) -> Action:
        if kind != protocol.BUZZ:
            raise MalformedInput(f"the buzzer round takes a buzz, not a {kind}")
        age = data.get("age_ms", 0)
        if not isinstance(age, int) or isinstance(age, bool) or age < 0:
            raise MalformedInput(f"a press age is whole milliseconds >= 0, got {age!r}")
        return Press(player, _ms(self.now) - age)  # the press time on the appliance's game clock

    def handle(self, player: str, kind: str, data: Mapping[str, Any], now: float) -> str:
        self.now = now  # parse places the press relative to its arrival
        return super().handle(player, kind, data, now)

    def ack(self, action: Action) -> str:
        question = self.engine.current
        if question is not None and action.player in question.locked_out:
            return "too early: locked out"
        return "buzzed!"

    def touches(self, action: Action) -> set[str] | None:
        # a press in the phase it leaves as it was (joining the line, a press while settling, too early)
        # changes only the presser's screen; the first press (armed -> settling or answering) is everyone's
        return {action.player} if isinstance(action, Press) else None

    def prompt(self, player: str) -> JSON:
        engine = self.engine
        score = engine.scores[player]
        private = {"score": score}
        question = engine.current
        if engine.finished:
            return game_over(player, engine.winners(), f"You scored {score}.", private)
        if question is None:
            return {**info("Buzzer", "Get ready for the first question.", wait=True), "private": private}
        title = f"Q{question.number}"
        if question.closed:
            result = f"{question.right} got it." if question.right else "Nobody got it."
            return {**info(title, f"{result} You have {score}.", wait=True), "private": private}
        if player in question.locked_out:
            return {**info(title, "Too early! Locked out of this question.", wait=True), "private": private}
        if question.answering == player:
            return {**info(title, "Your turn: answer now!"), "private": private}
        if player in question.wrong:
            return {**info(title, "Wrong. Wait for the next question.", wait=True), "private": private}
        if question.buzzed(player):
            text = f"Buzzed. {question.answering} is answering." if question.answering else "Buzzed!"
            return {**info(title, text, wait=True), "private": private}
        armed = question.armed_at is not None
        text = question.text or ("Buzz when you know!" if armed else "Wait for the buzzers...")
        return {"kind": protocol.BUZZ, "title": title, "text": text[: protocol.MAX_TEXT], "armed": armed,
                "private": private}


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def _whole(value: object, name: str, low: int, high: int) -> int:
    return whole(value, f"buzzer option {name} must be a whole number from {low} to {high}", low=low, high=high,
                 error=ConfigError)

