"""Real games at the table for the live page tests: each game's own flow (engine and prompts), driven
through its inputs, so the board views the tests read are what the appliance publishes."""

from __future__ import annotations

import random
from typing import Any

from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.session.engine_flow import EngineFlow
from appliance.session.flow import GameSetup
from firmware.core import bot

PLAYERS = ("Ann", "Bob", "Cat")

ESTIMATION = [
    DealtCard("spider", {"question": "How many legs does a spider have?", "answer": "8", "unit": "legs",
                    "hints": ["More than 4 legs.", "Less than 10 legs."]}),
    DealtCard("moon", {"question": "How many people have walked on the Moon?", "answer": "12", "unit": "people",
                  "hints": ["More than 5.", "Less than 20."]}),
]
ALLIN = [DealtCard(f"a{i}", {"statements": ["I can juggle", "I have met a king", "I sing in a choir"]})
         for i in range(4)]
SQUIZZ = [DealtCard(f"s{i}", {"prompt": "Which is tallest?", "propositions": [
    {"label": "Eiffel Tower", "value": "330"}, {"label": "Big Ben", "value": "96"},
    {"label": "Burj Khalifa", "value": "828"}]}) for i in range(12)]
CARDS = {"confident": ESTIMATION, "poker": ESTIMATION, "allin": ALLIN, "squizz": SQUIZZ}


def start(game: str, options: dict[str, Any] | None = None, cards: list[DealtCard] | None = None) -> EngineFlow:
    setup = GameSetup(game, list(PLAYERS), dict(options or {}), list(cards if cards is not None else CARDS[game]))
    flow = flow_factory(game)(setup, random.Random(3), 0.0)
    assert isinstance(flow, EngineFlow)
    return flow


def answer(flow: EngineFlow, player: str, data: dict[str, Any]) -> None:
    flow.handle(player, str(flow.prompt(player)["kind"]), data, 1.0)


def play_to_the_end(flow: EngineFlow, seed: int = 5) -> dict[str, Any]:
    """Every player plays random legal inputs (the firmware's bot) and the host moves on, to the end."""
    rng = random.Random(seed)
    for _ in range(2000):
        if flow.finished:
            return flow.board()
        moved = False
        for player in PLAYERS:
            prompt = flow.prompt(player)
            data = bot.choose({"v": 1, "id": "p", **prompt}, rng)
            if data is not None:
                flow.handle(player, str(prompt["kind"]), data, 1.0)
                moved = True
        if not moved:
            flow.advance(1.0)
    raise AssertionError(f"{flow.game} did not finish: {flow.board()}")
