"""Issue 29, item 5: the session, the store and resume work with 40 seats in every game. Forty handsets
(the firmware's bot choosing a random legal input from each prompt) play a few rounds of each game through
the real SQLite store; every prompt the hub would send fits a handset (no "Too much to show"), and a new
session on the same store resumes the game exactly: the same board and the same prompt for every seat."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from appliance.decks.deal import cards_for_game, seed_shipped
from appliance.edge.handsets import Handset
from appliance.errors import QuizboxError
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session
from firmware import protocol
from firmware.core import bot
from tests.support.prompts import sent_prompts

SEATS = 40
TEAMS = [f"Team {i:02d} of the room"[:protocol.MAX_NAME] for i in range(1, SEATS + 1)]
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("confident", {}), ("allin", {}), ("squizz", {}), ("poker", {"stack": 500, "ante": 10}), ("buzzer", {}),
]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _prompts(session: Session, handsets: list[Handset]) -> list[dict[str, Any]]:
    return [prompt for prompt, _ in sent_prompts(session, handsets)]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_forty_seats_play_store_and_resume(tmp_path: Path, game: str, options: dict[str, Any]) -> None:
    store = Store(tmp_path / "q.db")
    seed_shipped(store)
    cards = cards_for_game(store, game, random.Random(4), limit=40)
    clock = Clock()
    session = Session(clock, random.Random(4), store=store, flows=flow_factory)
    handsets = [Handset(id=f"h{n:02d}", name=name, accepted=True, online=True) for n, name in enumerate(TEAMS, 1)]
    session.start_game(GameSetup(game, TEAMS, options, cards), {h.name: h.id for h in handsets})
    rng = random.Random(11)
    inputs = 0
    for _ in range(3):  # a few rounds: every seat answers what it is asked (again as prompts change), then next
        for _pass in range(4):
            taken = 0
            for handset, prompt in zip(handsets, _prompts(session, handsets), strict=True):
                data = bot.choose(prompt, rng)
                if data is None:
                    continue
                clock.now += 0.01
                try:
                    session.handle_input(handset.id, prompt["id"], prompt["kind"], data)
                    taken += 1
                except QuizboxError:
                    pass  # a random input the state moved past (another seat's input closed the round)
            inputs += taken
            if not taken:
                break
        assert session.state == "playing"
        clock.now += 1
        if session.flow is not None and session.flow.can_advance():
            session.advance()
    assert inputs >= SEATS  # the room played
    assert session.flow is not None and len(session.flow.board()["seat_numbers"]) == SEATS
    resumed = Session(Clock(), random.Random(4), store=Store(tmp_path / "q.db"), flows=flow_factory)
    assert resumed.resume_stored() and resumed.flow is not None
    assert resumed.flow.log() == session.flow.log()
    assert json.dumps(resumed.flow.board(), sort_keys=True, default=str) == json.dumps(
        session.flow.board(), sort_keys=True, default=str)
    assert [p["kind"] for p in _prompts(resumed, handsets)] == [p["kind"] for p in _prompts(session, handsets)]
