"""What every game's flow shares: an engine, the cards, the log, time limits and skipping a card.

A game's flow subclasses :class:`EngineFlow` and says only what is its own: how a card becomes the
engine's deal action, which prompt each player sees, how a handset's input becomes an action, what
the host's *next* does, which steps follow by themselves, and what a time-out does.

The log is append-only (the store only ever appends): every engine action as applied (its ``to_json``),
and ``{"kind": "flow:skip", "player": ""}`` where the quizmaster skipped a card: the card's deal is then
taken back by rebuilding the engine without it. Replaying the log through a fresh flow gives the same
game, cards included, because the cards are dealt in set-up order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.games.base import HOST, JSON, Action, Engine
from appliance.games.dealt import DealtCard
from appliance.games.fields import whole
from appliance.session.flow import GameSetup

SKIP = "flow:skip"
STOP = "flow:stop"
"""The quizmaster's "finish now and score": a question still being played is taken back (as a skip
takes back its card: poker's bets and ante of that hand go back to their owners), then the game's own
end action scores the game by its stopped rule (most points or chips wins, ties share)."""

MAX_SECONDS = 3600


WAITING = "nothing to move on to yet: waiting for players"

NAMES_LISTED = 8
"""Up to this many players a prompt names the others (whom to copy, swap or exclude); a room is offered
seat numbers instead (rules.md The room 2): 39 names do not fit a handset's 1 KB prompt."""
"""Why the host's *next* is refused when a flow has nothing to do and does not say more."""


class EngineFlow:
    game: ClassVar[str] = ""
    flow_options: ClassVar[tuple[str, ...]] = ("answer_seconds",)
    """Options the flow keeps for itself (the session's timing, in whole seconds, 0 = no limit); the
    rest go to the engine."""

    def __init__(self, setup: GameSetup, rng: random.Random, now: float) -> None:
        self.setup = setup
        self.rng = rng
        options = dict(setup.options)
        self.timing: dict[str, int] = {}
        for name in self.flow_options:
            self.timing[name] = whole(options.pop(name, 0), f"{name} must be a whole number of seconds from 0 to "
                                      f"{MAX_SECONDS}", low=0, high=MAX_SECONDS, error=ConfigError)
        self.answer_seconds = self.timing["answer_seconds"]
        self.started_at = now  # session time when the game was set up (the poker ante clock)
        self.now = now  # session time of the step being applied (deal() may read it)
        self.engine = self.make_engine(setup.players, options)
        self.cards: Sequence[DealtCard] = list(setup.cards)
        self.dealt = 0  # cards dealt or skipped so far: the next card is self.cards[self.dealt]
        self.history: list[JSON] = []  # the log: engine actions and skips, in order
        self.opened_at: float | None = None
        self.touched: set[str] | None = None
        """The players whose prompt the last :meth:`handle` can have changed (None: everyone's)."""
        self.start(now)

    # -- what each game says ------------------------------------------------------------------------

    def make_engine(self, players: Sequence[str], options: Mapping[str, Any]) -> Engine:
        raise NotImplementedError

    def deal(self, card: DealtCard) -> list[Action]:
        """The host actions that put ``card`` on the table (parse its fields; MalformedInput if bad)."""
        raise NotImplementedError

    def is_deal(self, action: Action) -> bool:
        """Whether ``action`` is the first action of :meth:`deal` (so a replay counts cards)."""
        raise NotImplementedError

    def start(self, now: float) -> None:
        """What happens when the game is set up (e.g. deal the first card)."""
        self.deal_next(now)

    def prompt(self, player: str) -> JSON:
        raise NotImplementedError

    def parse(self, player: str, kind: str, data: Mapping[str, Any]) -> Action:
        """A handset's input as the engine's action (MalformedInput if it cannot be read)."""
        raise NotImplementedError

    def host_step(self) -> Action | None:
        """What the host's *next* applies now, or None (the next card is :meth:`deal_next`'s job)."""
        raise NotImplementedError

    def automatic(self) -> Action | None:
        """A host step that follows by itself now (e.g. close entries once everyone is in), or None."""
        return None

    def waiting_for_players(self) -> bool:
        """Whether players are entering something a time limit applies to."""
        return False

    def timeout(self) -> Action | None:
        """What the time limit's expiry applies, or None."""
        return None

    def time_limit(self) -> int:
        """Seconds for the current entry (0: none); the game may override (Fast Play)."""
        return self.answer_seconds

    def ack(self, action: Action) -> str:
        return "locked in"

    def end_of_deck(self) -> Action | None:
        """The action that ends the game when the cards run out (rules: most points wins), or None."""
        return None

    def stop_action(self) -> Action | None:
        """The host action that ends the game early and scores it by the game's stopped rule (rules.md
        Estimation poker 12, Confident 7, All In 6: most chips or points wins, ties share); by default
        the deck-ran-out end, which is that rule."""
        return self.end_of_deck()

    # -- the flow contract ------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.engine.finished

    @property
    def cards_dealt(self) -> int:
        return self.dealt

    def handle(self, player: str, kind: str, data: Mapping[str, Any], now: float) -> str:
        action = self.parse(player, kind, data)
        if action.player != player:
            raise IllegalAction(f"{player} cannot act for {action.player}")
        self.touched = set()
        self.apply(action, now)
        return self.ack(action)

    def touches(self, action: Action) -> set[str] | None:
        """The players whose prompt ``action`` (a player's, applied in the phase it leaves unchanged, with
        no step following by itself) can have changed; None: everyone's (the safe default). A game
        narrows it where the other players' prompts cannot show the action."""
        return None

    def _note_touched(self, action: Action, phase: str, stepped: bool) -> None:
        """Update :attr:`touched` after ``action``: a host action, a step that followed by itself or a
        phase change is everyone's; otherwise the game says (:meth:`touches`)."""
        if self.touched is None:
            return
        if action.player == HOST or stepped or self.engine.phase != phase:
            self.touched = None
            return
        mine = self.touches(action)
        self.touched = None if mine is None else self.touched | mine

    def apply(self, action: Action, now: float) -> None:
        """Apply one action, then every step that follows by itself; time limits restart on a phase
        that waits for players."""
        self.now = now
        waiting, phase = self.waiting_for_players(), self.engine.phase
        self.engine.apply(action)
        self.history.append(action.to_json())
        if self.is_deal(action):
            self.dealt += 1
        step = self.automatic()
        self._note_touched(action, phase, step is not None)
        while step is not None:
            self.engine.apply(step)
            self.history.append(step.to_json())
            step = self.automatic()
        # a time limit starts when players are asked for something new: a new card, or a new phase that
        # waits for them (All In's read, then its splits)
        if self.waiting_for_players() and (not waiting or self.is_deal(action) or self.engine.phase != phase):
            self.opened_at = now
        if not self.waiting_for_players():
            self.opened_at = None

    def can_advance(self) -> bool:
        if self.engine.finished:
            return False
        return self.host_step() is not None or self._can_deal()

    def waiting_for(self) -> str:
        """Why the host's *next* has nothing to do now, in words that say what to do (the refusal)."""
        return WAITING

    def advance(self, now: float) -> None:
        step = self.host_step()
        if step is not None:
            self.apply(step, now)
        elif self._can_deal():
            self.deal_next(now)
        else:
            raise IllegalAction(self.waiting_for())

    def _can_deal(self) -> bool:
        """A card can go on the table, or the deck ran out and the game has a way to end for it."""
        if not self.ready_for_card() or self.engine.finished:
            return False
        return self.dealt < len(self.cards) or self.end_of_deck() is not None

    def ready_for_card(self) -> bool:
        """Whether the engine is between questions and takes a new card now."""
        raise NotImplementedError

    def deal_next(self, now: float) -> None:
        """Deal the next card; with none left, end the game the game's way (or just stop)."""
        self.now = now
        while self.dealt < len(self.cards):
            card = self.cards[self.dealt]
            try:
                actions = self.deal(card)
            except MalformedInput:
                self.dealt += 1  # a card the engine refuses is passed over (the deck import checks cards)
                continue
            for action in actions:
                self.apply(action, now)
            return
        end = self.end_of_deck()
        if end is not None:
            self.apply(end, now)

    def skip(self, now: float) -> None:
        """Drop the current card if nobody has answered it yet, and deal the next one."""
        deal_at = self._last_deal()
        if deal_at is None or self.engine.finished:
            raise IllegalAction("there is no card on the table to skip")
        if any(a.player != HOST for a in self.engine.log[deal_at:]):
            raise IllegalAction("someone already answered this card: it cannot be skipped now")
        self._take_back(deal_at)
        self.history.append({"kind": SKIP, "player": HOST})
        self.deal_next(now)

    def can_finish(self) -> bool:
        """Whether "finish now and score" can end this game now."""
        return not self.engine.finished and self.stop_action() is not None

    def finish_now(self, now: float) -> None:
        """End the game now, scored by its stopped rule; a question still open is void (taken back)."""
        end = self.stop_action()
        if end is None or self.engine.finished:
            raise IllegalAction(f"{self.game or 'this game'} cannot be finished and scored now")
        self.history.append({"kind": STOP, "player": HOST})
        self._void_open_question(end)
        self.apply(end, now)

    @property
    def stopped(self) -> bool:
        """Whether the quizmaster finished the game early ("finish now and score")."""
        # a stopped game is over (finish_now ends it): while it plays, no need to read its whole log
        return self.engine.finished and any(entry.get("kind") == STOP for entry in self.history)

    def _void_open_question(self, end: Action) -> None:
        if self.engine.can(end):
            return
        deal_at = self._last_deal()
        if deal_at is not None:
            self._take_back(deal_at)

    def _last_deal(self) -> int | None:
        return max((i for i, a in enumerate(self.engine.log) if self.is_deal(a)), default=None)

    def _take_back(self, deal_at: int) -> None:
        """Rebuild the engine as it was before the deal at ``deal_at`` (the card stays dealt: skipped)."""
        kept = self.engine.log[:deal_at]
        self.engine = type(self.engine).rebuild(self.engine.players, self.engine.options, kept)

    def deadline(self) -> float | None:
        limit = self.time_limit()
        if not limit or self.opened_at is None or not self.waiting_for_players():
            return None
        return self.opened_at + limit

    def on_deadline(self, now: float) -> None:
        step = self.timeout()
        self.opened_at = None
        if step is not None:
            self.apply(step, now)

    def board(self, now: float | None = None) -> JSON:
        if now is not None:
            self.now = max(self.now, now)
        view = self.engine.public_view()
        view["cards_left"] = max(0, len(self.cards) - self.dealt)
        if self.stopped:
            view["stopped"] = True  # finished early by the quizmaster, scored as it stood
        return view

    def log(self) -> list[JSON]:
        return list(self.history)

    def restore(self, log: Sequence[JSON], now: float) -> None:
        # a fresh flow has dealt its first card at set-up: replay from an empty engine instead
        self.engine = type(self.engine)(self.engine.players, self.engine.options)
        self.dealt, self.history = 0, []
        for entry in log:
            if entry.get("kind") == SKIP:
                deal_at = self._last_deal()
                if deal_at is None:
                    raise MalformedInput("the stored log skips a card before any was dealt")
                self._take_back(deal_at)
            elif entry.get("kind") == STOP:
                end = self.stop_action()
                if end is None:
                    raise MalformedInput("the stored log stops a game that cannot be stopped")
                self._void_open_question(end)
            else:
                action = self.engine.action_from_json(entry)
                self.engine.apply(action)
                if self.is_deal(action):
                    self.dealt += 1
            self.history.append(dict(entry))
        self.opened_at = now if self.waiting_for_players() else None
