"""Confident? at the table: prompts from the engine's legal inputs, closing, settling, Fast Play's clock,
skipping a card, resuming from the store; and a whole game with bot handsets over mosquitto."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from appliance.edge.handsets import Handset
from appliance.errors import IllegalAction, QuizboxError
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session

CARDS = [
    DealtCard("d/1", {"question": "The moon. How many people have walked on it?", "answer": "12", "unit": "people"}),
    DealtCard("d/2", {"question": "How many bones in an adult human?", "answer": "206", "unit": "bones"}),
    DealtCard("d/3", {"question": "Boiling point of water at sea level?", "answer": "100", "unit": "degrees C"}),
]
PLAYERS = ["Ann", "Bob", "Cat"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _table(tmp_path: Path, options: dict[str, object] | None = None) -> tuple[Session, dict[str, Handset], Clock]:
    clock = Clock()
    session = Session(clock, random.Random(1), store=Store(tmp_path / "q.db"), flows=flow_factory)
    handsets = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}
    session.start_game(GameSetup("confident", PLAYERS, options or {}, CARDS), {p: p.lower() for p in PLAYERS})
    return session, handsets, clock


def _send(session: Session, handset: Handset, **data: object) -> str:
    prompt, _ = session.prompt_for(handset)
    return session.handle_input(handset.id, prompt["id"], prompt["kind"], data)


def test_a_question_from_prompt_to_points(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path)
    prompt, _ = session.prompt_for(hs["Ann"])
    assert prompt["kind"] == "range" and "moon" in prompt["text"] and prompt["unit"] == "people"
    assert prompt["boosts"] == {"copy": ["Bob", "Cat"], "swap": ["Bob", "Cat"], "double": True}
    assert _send(session, hs["Ann"], bottom="8", top="15", double=True) == "8 to 15, x2"
    assert session.prompt_for(hs["Ann"])[0]["title"] == "Locked in"
    with pytest.raises(QuizboxError, match="bottom"):  # refused: the board stays empty
        _send(session, hs["Bob"], bottom="40", top="5")
    assert session.flow is not None and session.flow.board()["question"]["answered"] == ["Ann"]
    _send(session, hs["Bob"], bottom="5", top="30")
    _send(session, hs["Cat"], copy="Ann")
    board = session.flow.board()
    assert board["phase"] == "closed"  # everyone in: entries close by themselves
    assert "8" not in str(board["question"].get("ranges", ""))  # nothing revealed before the host says so
    session.advance()  # reveal and score
    board = session.flow.board()
    # everyone is correct, so the biggest size (Bob) scores 0 (rules.md Confident 3); Ann doubled her 3
    assert board["question"]["points"] == {"Ann": 6, "Bob": 0, "Cat": 3}
    assert session.prompt_for(hs["Ann"])[0]["title"] == "Answer: 12"
    assert "Cat" not in session.prompt_for(hs["Ann"])[0]["private"]["boosts"]
    session.advance()  # next card
    prompt, _ = session.prompt_for(hs["Ann"])
    assert "bones" in prompt["text"] and prompt["boosts"] == {"copy": ["Bob", "Cat"], "swap": ["Bob", "Cat"],
                                                               "double": False}


def test_fast_play_closes_entries_when_the_time_is_up(tmp_path: Path) -> None:
    session, hs, clock = _table(tmp_path, {"variants": ["fast_play"], "fast_play_seconds": 10})
    _send(session, hs["Ann"], bottom="1", top="20")
    assert session.flow is not None and session.flow.deadline() == pytest.approx(session.game_time() + 10)
    clock.now += 9.9
    assert session.tick() is False
    clock.now += 0.2
    assert session.tick() is True
    assert session.flow.board()["question"]["closed"] == "timeout"
    prompt, _ = session.prompt_for(hs["Bob"])
    assert prompt["kind"] == "info" and prompt["title"] == "Too late"
    with pytest.raises(IllegalAction, match="no input"):
        session.handle_input("bob", prompt["id"], "range", {"bottom": "1", "top": "2"})


def test_pause_stops_the_clock(tmp_path: Path) -> None:
    session, hs, clock = _table(tmp_path, {"variants": ["fast_play"]})
    clock.now += 5
    session.pause()
    clock.now += 60
    assert session.tick() is False
    session.resume()
    clock.now += 4.9
    assert session.tick() is False
    clock.now += 0.2
    assert session.tick() is True


def test_skip_a_card_before_anyone_answers(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path)
    session.skip()
    assert "bones" in session.prompt_for(hs["Ann"])[0]["text"]
    _send(session, hs["Ann"], bottom="1", top="300")
    with pytest.raises(IllegalAction, match="already answered"):
        session.skip()
    resumed = Session(Clock(), store=session.store, flows=flow_factory)
    assert resumed.resume_stored()
    assert resumed.flow is not None and resumed.flow.board() == session.flow.board()  # type: ignore[union-attr]
    assert resumed.flow.log() == session.flow.log()  # type: ignore[union-attr]


def test_the_deck_running_out_ends_the_game(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path)
    for _ in CARDS:
        for p in PLAYERS:
            _send(session, hs[p], bottom="0", top="1000")
        session.advance()
        session.advance()
    assert session.state == "results"
    assert session.flow is not None and session.flow.board()["ending"] == "deck_ran_out"
    assert session.store is not None and session.store.used_cards() == {"d/1", "d/2", "d/3"}
    assert "Game over" in session.prompt_for(hs["Ann"])[0]["title"]


def test_skipping_the_last_card_ends_the_game_and_shows_the_results(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path)
    for _ in CARDS:
        session.skip()
    assert session.state == "results" and session.flow is not None
    assert session.flow.board()["ending"] == "deck_ran_out"
