"""sQuizz at the table: the die is rolled (the session's random source, recorded in the log), the card is
dealt, every non-reader's handset offers A/B/C and their unused bet tokens; the reveal follows the last
answer; the host's *next* rolls for the next reader. Token values stay on the handsets until the end.

In the room form (docs/rules.md squizz-room) nobody reads: the TV shows the card, the box rolls the die when
the host's *next* deals it, and every seat's handset offers A/B/C and its unused tokens on every card; the game
deals exactly ``tokens`` cards. The prompts stay within the protocol's sizes at 40 seats: none lists the room.

While answers are open, the host's *next* (a quizmaster who stops waiting, e.g. for a handset gone for
good) and the ``answer_seconds`` time limit close them: each answerer still missing is wrong and uses up
their lowest unused token (the product's decision, appliance.games.squizz.actions.Close)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from appliance.errors import ConfigError, MalformedInput
from appliance.games.base import HOST, JSON, Action, Engine
from appliance.games.dealt import DealtCard
from appliance.games.numbers import format_compact, parse_number
from appliance.games.squizz.actions import Answer, Close, CloseReason, EndGame, StartQuestion
from appliance.games.squizz.card import LETTERS, TARGETS, DealCard
from appliance.games.squizz.engine import SquizzEngine
from appliance.games.squizz.state import Phase
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import info
from firmware import protocol


class SquizzFlow(EngineFlow):
    game = "squizz"
    engine: SquizzEngine

    def make_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return SquizzEngine(tuple(players), options)

    def deal(self, card: DealtCard) -> list[Action]:
        props = card.fields.get("propositions")
        prompt = card.fields.get("prompt")
        if not isinstance(props, list) or len(props) != len(LETTERS) or not isinstance(prompt, str):
            raise MalformedInput(f"card {card.id} is not a sQuizz card")
        texts = tuple(proposition_text(p) for p in props)
        values: tuple[Decimal, ...] = tuple(parse_number(str(p.get("value"))) for p in props)
        die = self.rng.randint(1, 3)  # rules.md sQuizz 3: smallest, middle, largest with equal chance
        return [StartQuestion(HOST, die), DealCard(HOST, prompt, texts, values)]

    def start(self, now: float) -> None:
        # sQuizz ends after a fixed number of reads (rules.md sQuizz 1-2), or of tokens in the room form
        # (docs/rules.md squizz-room), not when the deck runs out: a game that cannot be finished is refused
        needed = self.engine.total_questions
        if len(self.cards) < needed:
            players = len(self.engine.players)
            form = " in the room form" if self.engine.room else ""
            raise ConfigError(f"sQuizz for {players} players{form} needs {needed} cards, got {len(self.cards)}")
        super().start(now)

    def is_deal(self, action: Action) -> bool:
        return isinstance(action, StartQuestion)

    def ready_for_card(self) -> bool:
        return self.engine.phase == Phase.ROLL

    def end_of_deck(self) -> Action | None:
        """The deck ran out before every read: rules.md sQuizz 6 decides on the totals so far (the game's
        stopped rule, rules.md Quiz night 2)."""
        return EndGame.now()

    # -- the host and the clock ------------------------------------------------------------------------

    def host_step(self) -> Action | None:
        """While answers are open, *next* closes them (the quizmaster stops waiting); otherwise None: the
        reveal follows the last answer by itself and *next* rolls for the next question."""
        return Close.by(CloseReason.HOST) if self.waiting_for_players() else None

    def waiting_for_players(self) -> bool:
        return self.engine.phase == Phase.ANSWERING

    def timeout(self) -> Action | None:
        return Close.by(CloseReason.TIMEOUT) if self.waiting_for_players() else None

    # -- handsets --------------------------------------------------------------------------------------

    def parse(self, player: str, kind: str, data: Mapping[str, Any]) -> Action:
        if kind != protocol.TOKEN:
            raise MalformedInput(f"sQuizz takes an answer and a token, not a {kind}")
        return Answer(player, str(data["answer"]), int(data["token"]))

    def ack(self, action: Action) -> str:
        assert isinstance(action, Answer)
        return f"{action.answer} with token {action.token}"

    def touches(self, action: Action) -> set[str] | None:
        # an answer and its token show only on the answerer's handset until the reveal (a phase change)
        return {action.player} if isinstance(action, Answer) else None

    def prompt(self, player: str) -> JSON:
        engine = self.engine
        private: JSON = {"tokens": list(engine.tokens[player])}
        question = engine.current
        if engine.finished:
            scores = engine.scores()
            winners = engine.winners()
            return {**info("Game over", f"{won_text(player, winners)} You scored {scores[player]}."),
                    "private": private}
        if question is None:
            return {**info("sQuizz", "Get ready for the first roll.", wait=True), "private": private}
        card = question.card
        legal = engine.legal_inputs(player)
        target = TARGETS[question.die]
        if legal is not None and card is not None:
            options = " ".join(f"{x}) {t}" for x, t in zip(LETTERS, card.texts, strict=True))
            return {
                "kind": protocol.TOKEN,
                "title": f"Which is {target}?",
                "text": f"{card.prompt} {options}"[: protocol.MAX_TEXT],
                "answers": list(legal["answers"]),
                "tokens": list(legal["tokens"]),
                "private": private,
            }
        return {**self._waiting(player, target), "private": private}

    def _waiting(self, player: str, target: str) -> JSON:
        question = self.engine.current
        assert question is not None
        card = question.card
        if question.revealed:
            right = "Correct!" if player in question.correct else "Not this time"
            if player in question.missed:
                right = f"Time was up: token {question.missed[player]} is used"
            if player == question.reader:
                right = "You read"
            return info(f"It was {question.correct_letter}", right, wait=True)
        if player == question.reader and card is not None:
            # the reader holds the card: they see the values (seed 004), nobody else does
            values = " ".join(f"{x}={format_compact(v)}" for x, v in zip(LETTERS, card.values, strict=True))
            return info(f"You read: {target}", f"{card.prompt} {values}"[: protocol.MAX_TEXT], wait=True)
        mine = question.answers.get(player)
        if mine is not None:
            return info("Locked in", f"{mine.answer} with token {mine.token}", wait=True)
        return info("Rolling", f"The die says: {target}", wait=True)


MAX_WINNERS_NAMED = 3
"""A shared win of more teams is said as a count: 40 names would not fit a handset's prompt."""


def won_text(player: str, winners: Sequence[str]) -> str:
    """The game-over line of ``player``'s handset: their win, the winner(s), or how many share the win."""
    if player in winners:
        return "You win!"
    if len(winners) > MAX_WINNERS_NAMED:
        return f"{len(winners)} teams share the win."
    return f"Winner: {', '.join(winners)}"


def proposition_text(proposition: Any) -> str:
    """A dealt proposition's text: its ``label`` (decks and scenario files say label for the text; the letter
    is the position). A card stored by an earlier version has the letter as ``label`` and a ``text``."""
    if not isinstance(proposition, Mapping):
        return ""
    return str(proposition.get("text", proposition.get("label", "")))
