"""A tiny game for testing the session and hub before (and independently of) the real engines.

Each question every player enters a range; a range holding the answer scores 1. The host's *next*
reveals the answer, then opens the next card; after the last card the game is over. It keeps an
action log like a real flow so tests can check that nothing is applied twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from appliance.errors import IllegalAction, MalformedInput
from appliance.flows import register_flow
from appliance.session.flow import GameSetup, info
from firmware import protocol


class GuessFlow:
    game = "guess"

    def __init__(self, setup: GameSetup, rng: Any) -> None:
        self.players = list(setup.players)
        self.cards = list(setup.cards)
        if not self.cards:
            raise MalformedInput("guess needs at least one card")
        self.index = 0
        self.revealed = False
        self.done = False
        self.ranges: dict[str, tuple[Decimal, Decimal]] = {}
        self.scores = {p: 0 for p in self.players}
        self.actions: list[dict[str, Any]] = []
        self.limit = setup.options.get("seconds")
        self.opened_at: float | None = None

    @property
    def finished(self) -> bool:
        return self.done

    @property
    def cards_dealt(self) -> int:
        return self.index + 1

    def prompt(self, player: str) -> dict[str, Any]:
        if self.done:
            return info("Game over", f"You scored {self.scores[player]}")
        if self.revealed:
            return info("Answer", f"It was {self.cards[self.index].fields['answer']}", wait=True)
        if player in self.ranges:
            low, high = self.ranges[player]
            return info("Locked in", f"{low} to {high}", wait=True)
        card = self.cards[self.index].fields
        return {"kind": protocol.RANGE, "title": f"Q{self.index + 1}", "text": card["question"], "unit": ""}

    def handle(self, player: str, kind: str, data: Mapping[str, Any], now: float) -> str:
        if self.done or self.revealed:
            raise IllegalAction("no question is open")
        if kind != protocol.RANGE or "bottom" not in data:
            raise MalformedInput("a range is expected")
        if player in self.ranges:
            raise IllegalAction("you already answered")
        try:
            low, high = Decimal(data["bottom"]), Decimal(data["top"])
        except InvalidOperation:
            raise MalformedInput(f"not a number: {data['bottom']!r} / {data['top']!r}") from None
        if low > high:
            raise IllegalAction("bottom is above top")
        self.ranges[player] = (low, high)
        self.actions.append({"player": player, "range": [str(low), str(high)]})
        return f"locked {low}-{high}"

    def waiting_for_players(self) -> bool:
        return not self.done and not self.revealed

    def can_advance(self) -> bool:
        return not self.done

    def advance(self, now: float) -> None:
        self.actions.append({"host": "next"})
        if not self.revealed:
            answer = Decimal(self.cards[self.index].fields["answer"])
            for player, (low, high) in self.ranges.items():
                if low <= answer <= high:
                    self.scores[player] += 1
            self.revealed = True
        elif self.index + 1 < len(self.cards):
            self.index += 1
            self.revealed = False
            self.ranges = {}
            self.opened_at = now
        else:
            self.done = True

    def skip(self, now: float) -> None:
        if self.done or self.revealed or self.ranges:
            raise IllegalAction("only an unanswered question can be skipped")
        if self.index + 1 >= len(self.cards):
            raise IllegalAction("no card left to skip to")
        self.actions.append({"host": "skip"})
        self.index += 1

    def deadline(self) -> float | None:
        if self.limit and self.opened_at is not None and not self.revealed and not self.done:
            return self.opened_at + float(self.limit)
        return None

    def on_deadline(self, now: float) -> None:
        self.advance(now)

    def board(self, now: float | None = None) -> dict[str, Any]:
        return {"question": self.index + 1, "revealed": self.revealed, "scores": dict(self.scores),
                "answered": sorted(self.ranges)}

    def log(self) -> list[dict[str, Any]]:
        return list(self.actions)

    def restore(self, log: list[dict[str, Any]], now: float) -> None:
        for entry in log:
            if entry.get("host") == "skip":
                self.skip(0.0)
            elif "host" in entry:
                self.advance(0.0)
            else:
                low, high = entry["range"]
                self.handle(entry["player"], protocol.RANGE, {"bottom": low, "top": high}, 0.0)
        if self.opened_at is not None:
            self.opened_at = now


def make_guess(setup: GameSetup, rng: Any, now: float) -> GuessFlow:
    return GuessFlow(setup, rng)


register_flow("guess", make_guess)
