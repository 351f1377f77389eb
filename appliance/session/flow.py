"""The contract between the session and one game: a *flow* wraps a pure engine with what the table sees.

The engine decides rules; the flow turns its state into handset prompts and the board's view, turns a
handset's input data into engine actions, and says when it needs the clock (a deadline) or the host
(``advance``: next question, reveal). The session owns time, prompt ids, seats and publishing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from appliance.games.dealt import DealtCard
from firmware import protocol

JSON = dict[str, Any]


@dataclass
class GameSetup:
    """What the quizmaster chose: the game, its options, the players in seat order and the cards."""

    game: str
    players: Sequence[str]
    options: Mapping[str, Any] = field(default_factory=dict)
    cards: Sequence[DealtCard] = ()


def info(title: str, text: str = "", wait: bool = False, lines: Sequence[str] = ()) -> JSON:
    """An info (or waiting) prompt body."""
    return {"kind": protocol.INFO, "title": title, "text": text, "wait": wait, "lines": list(lines)}


def game_over(player: str, winners: Sequence[str], standing: str, private: JSON) -> JSON:
    """``player``'s game-over prompt: their win or who won, then ``standing`` (their score or chips)."""
    won = "You win!" if player in winners else f"Winner: {', '.join(winners)}"
    return {**info("Game over", f"{won} {standing}"), "private": private}


class GameFlow(Protocol):
    """One game in progress, as the session drives it."""

    @property
    def game(self) -> str:
        """The game's id (its registry entry's, appliance.games.registry)."""
        ...

    @property
    def finished(self) -> bool: ...

    @property
    def cards_dealt(self) -> int:
        """How many of the set-up's cards have been put on the table or skipped (in set-up order)."""
        ...

    def prompt(self, player: str) -> JSON:
        """The prompt body (``kind``, ``title``, ``text`` and kind fields; no id) for ``player`` now."""
        ...

    def handle(self, player: str, kind: str, data: Mapping[str, Any], now: float) -> str:
        """Apply ``player``'s input (already shape-checked by the protocol); return the ack message.

        Raises MalformedInput (e.g. a number that does not parse) or IllegalAction; the state is then
        unchanged."""
        ...

    def waiting_for_players(self) -> bool:
        """Whether players are being asked for something now (then *next* would close their entries or,
        in poker, fold the player to act: the autopilot never does that for them)."""
        ...

    def can_advance(self) -> bool:
        """Whether the host's *next* has something to do now (reveal, next question, finish)."""
        ...

    def advance(self, now: float) -> None:
        """The host's *next*: settle, reveal, draw the next card, or finish."""
        ...

    def skip(self, now: float) -> None:
        """The host's *skip*: drop the current card (a bad question) and open the next one. Raises
        IllegalAction when the game is not at a card that can be skipped."""
        ...

    def deadline(self) -> float | None:
        """When (session clock) :meth:`on_deadline` must be called, or None."""
        ...

    def on_deadline(self, now: float) -> None: ...

    def board(self, now: float | None = None) -> JSON:
        """The public view for the TV (never a secret), as of session time ``now`` when given (a clock
        shown on the board, such as poker's time to the next ante, reads it)."""
        ...

    def log(self) -> list[JSON]:
        """Every accepted action so far, as JSON, in order: what persistence stores. Host actions and
        anything random (a die roll, a shuffle) are in it too, so the log alone rebuilds the game.
        A player's input carries its player's name under ``"player"``; host and session actions carry
        ``"player": ""`` (appliance.games.base.HOST) or no ``"player"`` at all (undo relies on this)."""
        ...

    def restore(self, log: Sequence[JSON], now: float) -> None:
        """Apply a stored log to this freshly made flow (resume after power loss, undo). A running time
        limit starts again, in full, from ``now``. Raises a QuizboxError if the log does not replay (a
        corrupted store): the session then refuses to resume."""
        ...


FlowFactory = Callable[[GameSetup, Any, float], GameFlow]
"""``factory(setup, rng, now)`` builds a flow at session time ``now`` (it may deal its first card then);
``rng`` is a ``random.Random`` owned by the session. Each game's factory is in appliance.flows.TABLE
(:func:`appliance.flows.flow_factory`)."""

FlowLookup = Callable[[str], FlowFactory]
"""Game id -> its flow factory, raising MalformedInput for an unknown game. The session is given one
(:func:`appliance.flows.flow_factory` where the box is wired), so it never imports the list of games."""
