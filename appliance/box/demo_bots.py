"""The demo's bots play like people at a pub quiz, not like a fuzzer.

A person's range is around the answer with human noise: most are right and reasonably wide, some are
wrong (a confident guess far off), numbers are rounded as people round them; a poker player bets on a
range that holds the answer and folds a bad one when raised. The demo runs in-process, so a demo bot
may be told the current card's answer (:func:`answer_of` reads the session): this is only ever for
``quizbox demo``. The real handset core (firmware/) never sees an answer; anything else a person
decides (All In splits, sQuizz picks, choices) is the firmware's own random bot.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from appliance.session.session import Session
from firmware import protocol
from firmware.core import allowed, bot, numtext

JSON = dict[str, Any]
Answer = Callable[[], Decimal | None]


def answer_of(session: Session) -> Decimal | None:
    """The answer on the card on the table (estimation games), or None."""
    index = session.current_card()
    if index is None or session.setup is None or index >= len(session.setup.cards):
        return None
    try:
        return Decimal(str(session.setup.cards[index].fields.get("answer")))
    except (InvalidOperation, ValueError):
        return None


def _nice(value: float, step: float, up: bool) -> Decimal:
    """``value`` rounded outwards to a round number (people type 1200, not 1187.3)."""
    count = math.ceil(value / step) if up else math.floor(value / step)
    return (Decimal(count) * Decimal(str(step))).normalize()


def _plain(value: Decimal) -> str:
    """As a handset sends it (``numtext.wire``: plain when it fits, else scientific)."""
    sign, digits, exponent = value.normalize().as_tuple()
    mantissa = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    return str(numtext.wire(mantissa, int(exponent)))


class Person:
    """One demo player: ``skill`` in 0..1 (how often and how tightly they are right)."""

    def __init__(self, rng: random.Random, answer: Answer, skill: float = 0.7) -> None:
        self.rng = rng
        self.answer = answer
        self.skill = skill

    def choose(self, prompt: JSON | None, rng: random.Random) -> JSON | None:
        if prompt is None:
            return None
        kind = prompt.get("kind")
        truth = self.answer()
        private = prompt.get("private")
        if kind == protocol.RANGE and isinstance(private, dict) and private.get("range") is not None:
            return None  # a poker range already in: a person does not change their mind every time
        if kind == protocol.RANGE and truth is not None:
            return allowed.check(prompt, self.range(prompt, truth))  # type: ignore[no-any-return]
        if kind == protocol.BET and truth is not None:
            data = self.bet(prompt, truth)
            if data is not None:
                return allowed.check(prompt, data)  # type: ignore[no-any-return]
        return bot.choose(prompt, rng)  # type: ignore[no-any-return]

    def guess(self, truth: Decimal) -> tuple[Decimal, Decimal]:
        """A person's range for ``truth``: usually right, sometimes confidently wrong."""
        answer = float(truth)
        scale = max(abs(answer), 1.0)
        right = self.rng.random() < 0.55 + 0.35 * self.skill
        if right:
            half = scale * self.rng.uniform(0.04, 0.5) * (1.3 - self.skill)
            centre = answer + self.rng.uniform(-0.8, 0.8) * half  # the answer lies inside
        else:
            half = scale * self.rng.uniform(0.02, 0.15)
            miss = scale * self.rng.uniform(0.25, 1.2) * self.rng.choice((-1, 1))
            centre = answer + miss
            if answer >= 0 and centre - half < 0:  # nobody says a negative number of legs
                centre = answer + abs(miss) + half
        step = 10 ** max(math.floor(math.log10(max(half, 1e-9))), -3) if half > 0 else 1
        bottom, top = _nice(centre - half, step, up=False), _nice(centre + half, step, up=True)
        if answer >= 0:
            bottom = max(bottom, Decimal(0))
        return bottom, max(top, bottom)

    def range(self, prompt: JSON, truth: Decimal) -> JSON:
        offer = allowed.boosts(prompt)
        if offer["copy"] and self.rng.random() < 0.06:
            return {"copy": self.rng.choice(offer["copy"])}
        bottom, top = self.guess(truth)
        data: JSON = {"bottom": _plain(bottom), "top": _plain(top)}
        if offer["double"] and bottom <= truth <= top and self.rng.random() < 0.15:
            data["double"] = True
        return data

    def bet(self, prompt: JSON, truth: Decimal) -> JSON | None:
        actions = {a["action"]: a for a in allowed.bet_actions(prompt)}
        private = prompt.get("private") if isinstance(prompt.get("private"), dict) else {}
        mine = private.get("range") if isinstance(private, dict) else None
        try:
            low, high = (Decimal(str(mine[0])), Decimal(str(mine[1]))) if isinstance(mine, list) else (None, None)
        except (InvalidOperation, IndexError):
            low = high = None
        good = low is not None and high is not None and low <= truth <= high
        roll = self.rng.random()
        if good and roll < 0.4:
            for name in ("raise", "bet"):
                if name in actions and actions[name].get("min") is not None:
                    entry = actions[name]
                    top = entry.get("max") or entry["min"] * 3
                    return {"action": name, "to": min(int(entry["min"]) * self.rng.choice((1, 1, 2)), int(top))}
        for name in ("check", "call") if good or roll < 0.5 else ("check", "fold"):
            if name in actions:
                return {"action": name}
        return {"action": "fold"} if "fold" in actions else None
