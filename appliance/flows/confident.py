"""Confident? at the table: a range prompt with the boosts still in hand, entries closed when everyone is in
or the time is up (Fast Play), the host's *next* reveals and scores, then deals the next card."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from appliance.errors import MalformedInput
from appliance.games.base import HOST, JSON, Action, Engine
from appliance.games.confident.actions import Answer, Close, CloseReason, EndGame, Settle, StartQuestion
from appliance.games.confident.engine import ConfidentEngine, Phase
from appliance.games.confident.options import Variant
from appliance.games.dealt import DealtCard
from appliance.games.numbers import format_compact, parse_number
from appliance.games.ranges import Range
from appliance.session.engine_flow import NAMES_LISTED, EngineFlow
from appliance.session.flow import game_over, info
from firmware import protocol


class ConfidentFlow(EngineFlow):
    game = "confident"
    engine: ConfidentEngine

    def make_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        return ConfidentEngine(players, options)

    # -- cards --------------------------------------------------------------------------------------

    def deal(self, card: DealtCard) -> list[Action]:
        fields = card.fields
        question, answer = fields.get("question"), fields.get("answer")
        if not isinstance(question, str) or not isinstance(answer, str):
            raise MalformedInput(f"card {card.id} is not an estimation card")
        return [StartQuestion(HOST, question, parse_number(answer), str(fields.get("unit", "")))]

    def is_deal(self, action: Action) -> bool:
        return isinstance(action, StartQuestion)

    def ready_for_card(self) -> bool:
        return self.engine.phase in (Phase.LOBBY, Phase.SETTLED)

    def end_of_deck(self) -> Action | None:
        return EndGame(HOST)  # rules.md Confident 7: the deck ran out, highest total wins

    # -- the host and the clock ----------------------------------------------------------------------------

    def host_step(self) -> Action | None:
        phase = self.engine.phase
        if phase == Phase.OPEN:
            return Close(HOST, CloseReason.TIMEOUT.value)  # the quizmaster stops waiting
        if phase == Phase.CLOSED:
            return Settle(HOST)
        return None

    def automatic(self) -> Action | None:
        question = self.engine.current
        everyone_in = question is not None and len(question.boards) == len(self.engine.players)
        if self.engine.phase == Phase.OPEN and everyone_in:
            return Close(HOST, CloseReason.EVERYONE_IN.value)
        return None

    def waiting_for_players(self) -> bool:
        return self.engine.phase == Phase.OPEN

    def time_limit(self) -> int:
        if Variant.FAST_PLAY in self.engine.variants:
            seconds: int = self.engine.options["fast_play_seconds"]  # rules.md Confident 8, Fast Play
            return seconds
        return self.answer_seconds

    def timeout(self) -> Action | None:
        if self.engine.phase == Phase.OPEN:
            return Close(HOST, CloseReason.TIMEOUT.value)  # rules.md Confident 4: no board, no range
        return None

    # -- handsets --------------------------------------------------------------------------------------------

    def parse(self, player: str, kind: str, data: Mapping[str, Any]) -> Action:
        if kind != protocol.RANGE:
            raise MalformedInput(f"Confident takes a range, not a {kind}")
        board = None
        if "bottom" in data:
            board = Range(parse_number(str(data["bottom"])), parse_number(str(data["top"])))
        copy, swap = data.get("copy"), data.get("swap")
        named = self.engine.player_at  # a name or a seat number (rules.md The room 2)
        return Answer(
            player,
            range=board,
            copy=None if copy is None else named(copy),
            swap=None if swap is None else (named(swap[0]), named(swap[1])),
            double=bool(data.get("double", False)),
        )

    def ack(self, action: Action) -> str:
        assert isinstance(action, Answer)
        return _describe(action)

    def touches(self, action: Action) -> set[str] | None:
        # a board changes only its writer's prompt: the others' offer every other player to copy or swap,
        # whoever has answered, and nobody's prompt shows who is in (the board does)
        return {action.player} if isinstance(action, Answer) else None

    def _pickable(self, names: list[str]) -> list[str]:
        """Whom a Copy or a Swap may name, as the prompt offers them: names at a table, seat numbers in a
        room (rules.md The room 2; 39 names twice are more than a handset's 1 KB prompt holds)."""
        if len(self.engine.players) <= NAMES_LISTED:
            return names
        return [str(self.engine.seat(name)) for name in names]

    def prompt(self, player: str) -> JSON:
        engine = self.engine
        question = engine.current
        score = engine.scores[player]
        private = {"score": score, "boosts": [b.value for b in engine.boosts_left(player)]}
        if engine.finished:
            return game_over(player, engine.winners(), f"You scored {score}.", private)
        if question is None:
            return {**info("Confident?", "Get ready for the first question.", wait=True), "private": private}
        if engine.phase == Phase.OPEN and player not in question.boards:
            legal = engine.legal_inputs(player)
            body: JSON = {
                "kind": protocol.RANGE,
                "title": f"Q{question.number}",
                "text": question.card.question[: protocol.MAX_TEXT],
                "unit": question.card.unit,
                "private": private,
            }
            if legal["boosts"]:
                body["boosts"] = {"copy": self._pickable(legal["copy"]), "swap": self._pickable(legal["swap"]),
                                  "double": "double" in legal["boosts"]}
            return body
        if engine.phase in (Phase.OPEN, Phase.CLOSED):
            board = question.boards.get(player)
            mine = _describe(board) if board is not None else "no range"
            return {**info("Locked in" if board else "Too late", mine, wait=True), "private": private}
        settlement = question.settlement
        assert settlement is not None
        points = settlement.points[player]
        answer = format_compact(settlement.answer)
        return {**info(f"Answer: {answer}", f"You scored {points:+d}. Total {score}.", wait=True), "private": private}


def _describe(board: Answer) -> str:
    parts = []
    if board.range is not None:
        parts.append(f"{format_compact(board.range.low)} to {format_compact(board.range.high)}")
    if board.copy is not None:
        parts.append(f"copy {board.copy}")
    if board.swap is not None:
        parts.append(f"swap {board.swap[0]}/{board.swap[1]}")
    if board.double:
        parts.append("x2")
    return ", ".join(parts)[: protocol.MAX_MESSAGE]
