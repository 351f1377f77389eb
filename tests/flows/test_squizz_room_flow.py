"""sQuizz's room form at the table (docs/rules.md squizz-room): a 24-seat game through the session and the real
store (SQLite), every seat prompted on every card within the protocol's sizes, the die rolled from the session's
random source and kept in the stored log, the host's next, a resume from the stored log mid-game, and exactly
K cards dealt."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.handsets import Handset
from appliance.errors import ConfigError, QuizboxError
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session
from firmware import protocol

SEATS = [f"Team {n:02d}" for n in range(1, 25)]
CARDS = [DealtCard(f"s/{i}", {"prompt": f"Height in metres, card {i}", "propositions": [
    {"label": "Big Ben", "value": "96"}, {"label": "Eiffel Tower", "value": "330"},
    {"label": "Leaning Tower of Pisa", "value": "57"}]}) for i in range(10)]
RIGHT = {1: "C", 2: "A", 3: "B"}
"""The die face -> the right letter on these cards: Pisa 57 the smallest, Big Ben 96 the middle, Eiffel 330."""
WRONG = {"A": "B", "B": "C", "C": "A"}
TOKENS = 4


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def handsets() -> dict[str, Handset]:
    return {p: Handset(id=f"h{n}", name=p, accepted=True, online=True) for n, p in enumerate(SEATS)}


def start(tmp_path: Path, options: dict[str, object]) -> Session:
    session = Session(Clock(), random.Random(11), store=Store(tmp_path / "quizbox.db"), flows=flow_factory)
    session.start_game(GameSetup("squizz", SEATS, options, CARDS), {p: h.id for p, h in handsets().items()})
    return session


def board(session: Session) -> dict[str, Any]:
    assert session.flow is not None
    view: dict[str, Any] = session.flow.board()
    return view


def prompt(session: Session, handset: Handset) -> dict[str, Any]:
    body, _ = session.prompt_for(handset)
    protocol.encode(body)  # ProtocolError if over the protocol's 1024 bytes
    return body


def answer(session: Session, handset: Handset, letter: str, token: int) -> str:
    return session.handle_input(handset.id, prompt(session, handset)["id"], protocol.TOKEN,
                                {"answer": letter, "token": token})


def test_a_24_seat_room_game_plays_through_the_store_and_resumes_from_its_log(tmp_path: Path) -> None:
    session = start(tmp_path, {"tokens": TOKENS})
    hs = handsets()
    used: dict[str, list[int]] = {p: [] for p in SEATS}
    dies: list[int] = []

    def play_card(players: list[str], session: Session) -> None:
        """``players`` answer the open card: the first half of the room right, the rest wrong, each with
        their lowest unused token."""
        die = board(session)["question"]["die"]
        for player in players:
            mine = prompt(session, hs[player])
            assert mine["kind"] == protocol.TOKEN and mine["answers"] == ["A", "B", "C"]
            assert mine["tokens"] == [t for t in range(1, TOKENS + 1) if t not in used[player]]
            token = mine["tokens"][0]
            letter = RIGHT[die] if SEATS.index(player) < 12 else WRONG[RIGHT[die]]
            assert answer(session, hs[player], letter, token) == f"{letter} with token {token}"
            used[player].append(token)

    # card 1: no reader; every one of the 24 seats is asked, the TV shows the card and nobody reading
    view = board(session)
    assert view["readers"] is False and view["question"]["reader"] is None and view["questions_total"] == TOKENS
    assert view["seat_numbers"] == {p: n for n, p in enumerate(SEATS, start=1)}
    assert all(prompt(session, hs[p])["kind"] == protocol.TOKEN for p in SEATS)
    dies.append(view["question"]["die"])
    play_card(SEATS, session)
    assert board(session)["question"]["revealed"] and board(session)["question"]["correct"] == SEATS[:12]
    assert board(session)["scores"] is None  # token values stay hidden until the end
    session.advance()  # the host's next: the box rolls and deals card 2
    dies.append(board(session)["question"]["die"])
    play_card(SEATS[:10], session)  # ten teams are in when the power goes

    # the die came from the session's random source and is in the stored log: a resume reads it, never rolls again
    assert session.flow is not None and session.store is not None
    stored_dies = [entry["die"] for entry in session.flow.log() if entry["kind"] == "roll"]
    assert stored_dies == dies and all(d in (1, 2, 3) for d in dies)
    before, log = board(session), session.flow.log()
    resumed = Session(Clock(), random.Random(999), store=Store(tmp_path / "quizbox.db"), flows=flow_factory)
    assert resumed.resume_stored() and resumed.flow is not None
    assert resumed.flow.log() == log and board(resumed) == before
    assert prompt(resumed, hs[SEATS[0]])["title"] == "Locked in"
    assert prompt(resumed, hs[SEATS[10]])["tokens"] == [2, 3, 4]
    with pytest.raises(QuizboxError):  # a team that is in cannot answer again after the resume
        answer(resumed, hs[SEATS[0]], "A", 4)

    play_card(SEATS[10:], resumed)
    for _ in range(TOKENS - 2):
        resumed.advance()
        dies.append(board(resumed)["question"]["die"])
        play_card(SEATS, resumed)
    final = board(resumed)
    assert final["finished"] and resumed.flow.cards_dealt == TOKENS  # exactly K cards
    assert all(sorted(tokens) == list(range(1, TOKENS + 1)) for tokens in used.values())
    # the first 12 were right on every card: 1+2+3+4 = 10 points each, a win shared by 12 teams
    assert final["scores"] == {p: 10 if n < 12 else 0 for n, p in enumerate(SEATS)}
    assert final["winners"] == SEATS[:12]
    assert prompt(resumed, hs[SEATS[0]])["text"] == "You win! You scored 10."
    assert prompt(resumed, hs[SEATS[20]])["text"] == "12 teams share the win. You scored 0."


def test_the_hosts_next_closes_the_answers_of_a_40_seat_room_and_every_prompt_fits(tmp_path: Path) -> None:
    seats = [f"The Quizzly Bears No. {n:02d}" for n in range(40)]  # 24 characters, the longest name
    assert {len(p) for p in seats} == {protocol.MAX_NAME}
    room = {p: Handset(id=f"h{n}", name=p, accepted=True, online=True) for n, p in enumerate(seats)}
    session = Session(Clock(), random.Random(5), store=Store(tmp_path / "q.db"), flows=flow_factory)
    cards = CARDS[:6]
    session.start_game(GameSetup("squizz", seats, {}, cards), {p: h.id for p, h in room.items()})
    first = room[seats[0]]
    session.handle_input(first.id, prompt(session, first)["id"], protocol.TOKEN, {"answer": "A", "token": 6})
    assert all(prompt(session, room[p])["kind"] == protocol.TOKEN for p in seats[1:])
    session.advance()  # the host stops waiting: 39 teams are wrong and use up token 1
    question = board(session)["question"]
    assert question["revealed"] and question["missed"] == seats[1:]
    assert all(prompt(session, room[p])["text"] == "Time was up: token 1 is used" for p in seats[1:])


def test_a_room_game_needs_its_k_cards(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="sQuizz for 24 players in the room form needs 12 cards, got 10"):
        start(tmp_path, {"tokens": 12})
