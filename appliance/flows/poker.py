"""Estimation poker at the table: secret ranges on the handsets while the question is up, then four
betting rounds where only the player to act gets a bet prompt (the engine's legal actions, with min and
max amounts), hints and the answer on the board as rounds end, and the ante clock.

Timing (session clock, stopped while paused): ``answer_seconds`` limits range entry (then betting starts;
no range is a fold, rules.md Estimation poker 4); ``action_seconds`` is the optional action clock (a
player out of time checks if they can, else folds). The ante in force is :func:`ante_at` of the time
since the game started (or the questions played) when a question starts (rules.md Estimation poker 1).
After a restart the clock resumes at the start of the current ante level: the log holds each question's
ante, not wall time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from appliance.errors import MalformedInput
from appliance.games.base import JSON, Action, Engine
from appliance.games.dealt import DealtCard
from appliance.games.numbers import format_compact, parse_number
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
from appliance.games.poker.room import RoomPokerEngine
from appliance.games.poker.schedule import GROWTH, Unit, ante_at
from appliance.games.poker.state import Phase
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import game_over, info
from firmware import protocol

SIMPLE = {"check": Check, "call": Call, "fold": Fold, "allin": AllIn}
AMOUNT = {"bet": Bet, "raise": Raise}
SHOW = "show"


class PokerFlow(EngineFlow):
    """Up to 8 players one table; above, room tables (rules.md Estimation poker 13-15): each player's prompt
    is their table's, every table keeps its own action clock (:attr:`turns`), and the host's *next* starts
    betting at every table together."""

    game = "poker"
    engine: RoomPokerEngine
    flow_options: ClassVar[tuple[str, ...]] = ("answer_seconds", "action_seconds")

    def make_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        self.turns: dict[int, tuple[str, float]] = {}
        """Room tables: table number -> (the player to act there, when their turn started)."""
        return RoomPokerEngine(players, options)

    # -- cards and the ante clock ---------------------------------------------------------------------

    def deal(self, card: DealtCard) -> list[Action]:
        fields = card.fields
        question, answer, hints = fields.get("question"), fields.get("answer"), fields.get("hints")
        if not isinstance(question, str) or not isinstance(answer, str) or not isinstance(hints, list):
            raise MalformedInput(f"card {card.id} is not an estimation card with hints")
        return [StartQuestion.deal(question, parse_number(answer), [str(h) for h in hints], self.ante_now())]

    def ante_now(self) -> int:
        return ante_at(self.engine.schedule, max(0.0, self.now - self.started_at), len(self.engine.questions))

    def ante_next(self) -> JSON:
        """The next ante and when it applies, for the board: ``questions``: it applies from that many
        questions on (1: the next one); ``seconds``: the time until it is in force (0: from the next
        question). A new ante takes effect only when a question starts (rules.md Estimation poker 1)."""
        schedule = self.engine.schedule
        question = self.engine.current
        current = question.ante if question is not None else schedule.start
        played = len(self.engine.questions)
        if schedule.unit is Unit.QUESTIONS:
            ahead = 0
            while ante_at(schedule, 0.0, played + ahead) <= current:
                ahead += 1
            return {"ante": ante_at(schedule, 0.0, played + ahead), "questions": ahead + 1}
        due = self.ante_now()
        if due > current:
            return {"ante": due, "seconds": 0}
        period = schedule.every * 60
        elapsed = max(0.0, self.now - self.started_at)
        left = period - elapsed % period
        # whole ten seconds: the board is republished when this changes, not on every tick
        return {"ante": current * GROWTH, "seconds": int(-(-left // 10) * 10)}

    def is_deal(self, action: Action) -> bool:
        return isinstance(action, StartQuestion)

    def ready_for_card(self) -> bool:
        return self.engine.phase in (Phase.WAITING, Phase.SHOWDOWN)

    def end_of_deck(self) -> Action | None:
        return EndGame.now()  # rules.md Estimation poker 12: the deck ran out, most chips wins

    def restore(self, log: Sequence[JSON], now: float) -> None:
        super().restore(log, now)
        self._note_turns(None, now)  # room tables: every action clock starts again, as the one clock does
        self.now = now
        schedule = self.engine.schedule
        question = self.engine.current
        if schedule.unit is Unit.MINUTES and question is not None:
            level = 0
            while schedule.start * GROWTH ** (level + 1) <= question.ante:
                level += 1
            self.started_at = now - level * schedule.every * 60

    # -- the host and the clock ----------------------------------------------------------------------------

    def host_step(self) -> Action | None:
        """The quizmaster stops waiting: betting starts without the missing ranges, or the player to
        act (a handset gone dark) checks if they can, else folds, as when the action clock runs out."""
        if self.engine.phase == Phase.RANGES and self.engine.can(StartBetting.now()):
            return StartBetting.now()
        if self.engine.phase == Phase.BETTING:
            return self._out_of_time(self._longest_waiting()) if self.engine.room else self.timeout()
        return None

    def waiting_for(self) -> str:
        if self.engine.phase == Phase.RANGES and not self.engine.can(StartBetting.now()):
            # betting cannot start with everyone folded (NoRanges); a card nobody answered can be skipped
            where = " at one of the tables" if self.engine.room else ""
            return f"nobody{where} has entered a range yet: wait for one, or skip the card (its antes go back)"
        return super().waiting_for()

    def automatic(self) -> Action | None:
        question = self.engine.current
        if self.engine.phase == Phase.RANGES and question is not None and all(
            len(hand.ranges) == len(hand.dealt) for hand in question.hands.values()
        ):
            return StartBetting.now()  # everyone's range is in at every table: betting round 1 starts (ranges lock)
        return None

    def waiting_for_players(self) -> bool:
        return self.engine.phase in (Phase.RANGES, Phase.BETTING)

    def time_limit(self) -> int:
        if self.engine.phase == Phase.BETTING:
            return self.timing["action_seconds"]
        return self.answer_seconds

    def apply(self, action: Action, now: float) -> None:
        acted_at = self.engine.table_number(action.player) if action.player else None
        super().apply(action, now)
        if self.engine.phase == Phase.BETTING:
            # the action clock starts again for whoever acts next, also when the same player opens the
            # next round (rules.md Estimation poker 2); at room tables, at the table that moved
            self.opened_at = now
        self._note_turns(acted_at, now)

    def _note_turns(self, acted_at: int | None, now: float) -> None:
        """Room tables: the action clock of the table where ``acted_at``'s player acted (every table after
        a host action) starts again; tables with nobody to act have none."""
        actors = self.engine.actors() if self.engine.room and self.engine.phase == Phase.BETTING else {}
        self.turns = {
            number: (actor, now if acted_at in (None, number) or self.turns.get(number, ("",))[0] != actor
                     else self.turns[number][1])
            for number, actor in actors.items()
        }

    def _longest_waiting(self) -> str:
        """Room tables: the player to act whose turn started first."""
        return min(self.turns.values(), key=lambda turn: turn[1])[0]

    def _out_of_time(self, actor: str) -> Action:
        """A player out of time (or waited for no longer by the host) checks if they can, else folds."""
        kinds = {offer.kind for offer in self.engine.legal_inputs(actor)}
        return Check(actor) if "check" in kinds else Fold(actor)

    def deadline(self) -> float | None:
        limit = self.time_limit()
        if not self.engine.room or self.engine.phase != Phase.BETTING:
            return super().deadline()
        return min(since for _, since in self.turns.values()) + limit if limit and self.turns else None

    def on_deadline(self, now: float) -> None:
        """Room tables: every player whose own table's clock ran out checks or folds."""
        if not self.engine.room or self.engine.phase != Phase.BETTING:
            super().on_deadline(now)
            return
        limit = self.time_limit()
        for number, (actor, since) in sorted(self.turns.items()):
            if since + limit <= now and self.engine.actors().get(number) == actor:
                self.apply(self._out_of_time(actor), now)

    def timeout(self) -> Action | None:
        engine = self.engine
        if engine.phase == Phase.RANGES and engine.can(StartBetting.now()):
            return StartBetting.now()
        actor = engine.to_act
        if engine.phase == Phase.BETTING and actor is not None:
            return self._out_of_time(actor)
        return None

    # -- handsets --------------------------------------------------------------------------------------------

    def parse(self, player: str, kind: str, data: Mapping[str, Any]) -> Action:
        if kind == protocol.RANGE:
            if "bottom" not in data:
                raise MalformedInput("poker takes a range: low and high")
            return EnterRange(player, parse_number(str(data["bottom"])), parse_number(str(data["top"])))
        if kind == protocol.BET:
            action = data["action"]
            if action in AMOUNT:
                return AMOUNT[action](player, data["to"])
            return SIMPLE[action](player)
        if kind == protocol.CHOICE and data["choices"].get(SHOW) == "yes":
            return Reveal(player)
        raise MalformedInput(f"poker takes a range, a bet or a reveal, not a {kind}")

    def ack(self, action: Action) -> str:
        if isinstance(action, EnterRange):
            return f"range {format_compact(action.low)} to {format_compact(action.high)}"
        if isinstance(action, Bet | Raise):
            return f"{action.kind} to {action.to}"
        return "shown" if isinstance(action, Reveal) else action.kind

    def touches(self, action: Action) -> set[str] | None:
        """A secret range or a folded player's reveal shows only on its player's handset. A bet in the
        betting phase changes its player's prompt (their stack; they no longer act) and gives the next
        player to act the bet prompt; the waiting players' screens do not say whose turn it is (the TV
        does), so theirs stay as they were (issue 22). The end of the betting (showdown) is a phase
        change: everyone's."""
        if isinstance(action, EnterRange | Reveal):
            return {action.player}
        table, hand = self.engine.table_of(action.player), self.engine.hand(action.player)
        if table is None or hand is None or hand.settled:
            return None  # a room table's hand is over: its players' screens change
        actor = table.to_act  # after the bet: who acts next at the player's table (None: nobody yet)
        return {action.player} | ({actor} if actor is not None else set())

    def prompt(self, player: str) -> JSON:
        engine = self.engine
        mine = engine.private_view(player)
        private = {"stack": mine["stack"], "range": mine["range"]}
        question = engine.hand(player)
        if engine.finished:
            return game_over(player, engine.winners(), f"You have {mine['stack']} chips.", private)
        if engine.current is None:
            return {**info("Estimation poker", "Get ready: antes first.", wait=True), "private": private}
        if question is None:  # room tables: out, or alone at a table that plays no more hands
            if mine["stack"] == 0:
                return {**info("Out", "No chips left: watch the TV.", wait=True), "private": private}
            return {**info(f"Table {mine.get('table')}: waiting", "Alone at your table: you keep your chips "
                           "until the final table.", wait=True), "private": private}
        if mine["may_enter_range"]:  # again once entered: the last counts (rules.md poker-4)
            title = f"Q{question.number} ante {question.ante}" if mine["range"] is None else \
                f"Q{question.number}: your range is in"
            return {"kind": protocol.RANGE, "title": title, "text": question.text[: protocol.MAX_TEXT], "unit": "",
                    "private": private}
        if mine["your_turn"]:
            offers = engine.offered_inputs(player)  # a short call is offered as the all-in it is
            actions: list[JSON] = []
            for offer in offers:
                entry: JSON = {"action": offer.kind}
                if offer.kind in AMOUNT:
                    entry.update({"min": offer.min_to, "max": offer.max_to})
                actions.append(entry)
            pot = sum(question.put_in.values())
            hint = question.hints_shown()[-1] if question.hints_shown() else question.text
            return {"kind": protocol.BET, "title": f"Round {question.round.number if question.round else 1}",
                    "text": hint[: protocol.MAX_TEXT], "actions": actions, "stack": mine["stack"],
                    "to_call": mine["to_call"], "pot": pot, "private": private}
        if mine["may_reveal"]:
            return {"kind": protocol.CHOICE, "title": "Show your range?",
                    "text": "Folded: showing is up to you. Send to show it; not sending keeps it hidden.",
                    "fields": [{"name": SHOW, "label": "Show it", "required": True,
                                "options": [{"id": "yes", "label": "Show my range"}]}], "private": private}
        return {**self._waiting(player), "private": private}

    def _waiting(self, player: str) -> JSON:
        engine = self.engine
        question = engine.hand(player)
        assert question is not None
        if engine.phase == Phase.BETTING and question.settled:
            return info("Hand over", "Your table's hand is over: waiting for the other tables.", wait=True)
        if engine.phase == Phase.RANGES:
            return info("Ranges", "Waiting for the others' ranges.", wait=True)  # a player dealt out
        if engine.phase == Phase.BETTING:
            # never whose turn it is: that changes with every bet, and the TV shows it (issue 22)
            if player in question.folded:
                return info("Folded", "Out of this hand: watch the TV.", wait=True)
            return info("Betting", "Not your turn: the TV shows who acts.", wait=True)
        return info("Showdown", "Look at the TV.", wait=True)

    def board(self, now: float | None = None) -> JSON:
        view = super().board(now)
        if not self.engine.finished:
            view["ante_next"] = self.ante_next()
        return view
