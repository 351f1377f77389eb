"""The buzzer round at the table, through the session with a hand-driven clock: prompts, the settle
window, the host's *next*, the quizmaster's commands, the store, undo and skip."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.handsets import Handset
from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.flows import flow_factory
from appliance.flows.buzzer import BuzzerFlow
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Paused, setup_from_json
from tests.buzzer.wiring import CommandSession

PLAYERS = ["Ann", "Bob", "Cat"]
CARDS = [DealtCard("e/1", {"question": "How many moons has Saturn?", "answer": "146"}),
         DealtCard("e/2", {"statements": ["an All In card", "has no question", "text"]}),
         DealtCard("e/3", {"question": "Third?", "answer": "3"})]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Table:
    def __init__(self, tmp_path: Path, options: dict[str, Any] | None = None, cards: list[DealtCard] = CARDS) -> None:
        self.clock = Clock()
        self.store = Store(tmp_path / "q.db")
        self.session = CommandSession(self.clock, random.Random(1), store=self.store, flows=flow_factory)
        self.hs = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}
        setup = GameSetup("buzzer", PLAYERS, options or {}, cards)
        self.session.start_game(setup, {p: p.lower() for p in PLAYERS})

    def prompt(self, player: str) -> dict[str, Any]:
        return self.session.prompt_for(self.hs[player])[0]

    def buzz(self, player: str, at: float, age_ms: int | None = None) -> str:
        """``player``'s buzz arrives at ``at``; with ``age_ms`` (the hub's measure) it happened earlier."""
        self.clock.now = at
        data: dict[str, Any] = {"pressed": 1} if age_ms is None else {"pressed": 1, "age_ms": age_ms}
        return self.session.handle_input(self.hs[player].id, self.prompt(player)["id"], "buzz", data)

    def tick(self, at: float) -> bool:
        self.clock.now = at
        return self.session.tick()

    def command(self, name: str, at: float | None = None) -> str:
        if at is not None:
            self.clock.now = at
        return self.session.flow_command(name, {"cmd": name})

    @property
    def view(self) -> dict[str, Any]:
        assert self.session.flow is not None
        return self.session.flow.board()


def test_a_question_opens_unarmed_and_arming_changes_every_prompt(tmp_path: Path) -> None:
    table = Table(tmp_path)
    before = {p: table.prompt(p) for p in PLAYERS}
    assert before["Ann"]["kind"] == "buzz" and before["Ann"]["armed"] is False
    assert before["Ann"]["title"] == "Q1" and before["Ann"]["text"] == "How many moons has Saturn?"
    assert table.view["phase"] == "waiting" and table.view["question"] == "How many moons has Saturn?"
    assert table.command("arm", 101.0) == "buzzers armed"
    after = {p: table.prompt(p) for p in PLAYERS}
    assert all(after[p]["armed"] is True and after[p]["id"] != before[p]["id"] for p in PLAYERS)
    assert table.view["phase"] == "armed"


def test_an_early_press_locks_out_and_says_so(tmp_path: Path) -> None:
    table = Table(tmp_path)
    assert table.buzz("Cat", 100.5) == "too early: locked out"  # rules.md Buzzer 1
    assert table.prompt("Cat")["kind"] == "info" and "Locked out" in table.prompt("Cat")["text"]
    table.command("arm", 101.0)
    assert table.prompt("Cat")["kind"] == "info" and table.view["locked_out"] == ["Cat"]


def test_the_settle_window_lets_an_earlier_press_still_on_its_way_go_first(tmp_path: Path) -> None:
    table = Table(tmp_path, {"settle_ms": 150})
    table.command("arm", 101.0)
    assert table.buzz("Bob", 102.000, age_ms=10) == "buzzed!"  # pressed at 101.990
    assert table.session.flow is not None and table.session.flow.deadline() == pytest.approx(102.150)
    assert table.view["phase"] == "armed" and table.view["buzzes"] == []  # not final yet: not shown
    assert not table.tick(102.100)
    table.buzz("Ann", 102.120, age_ms=140)  # pressed at 101.980: earlier, arrived later
    assert table.session.flow.deadline() == pytest.approx(102.150)  # the window runs from the first arrival
    assert table.tick(102.150)
    assert table.view["phase"] == "answering" and table.view["buzzes"] == ["Ann", "Bob"]
    assert table.view["reaction_ms"] == {"Ann": 980, "Bob": 990}
    assert table.prompt("Ann")["text"] == "Your turn: answer now!"
    assert table.prompt("Bob")["text"] == "Buzzed. Ann is answering."
    assert table.prompt("Cat")["kind"] == "buzz" and table.prompt("Cat")["armed"]  # may still buzz


def test_judging_from_the_admin_wrong_passes_right_scores(tmp_path: Path) -> None:
    table = Table(tmp_path, {"points_right": 2, "points_wrong": -1, "settle_ms": 0})
    table.command("arm", 101.0)
    table.buzz("Bob", 102.0)
    table.buzz("Ann", 102.1)
    assert table.view["answering"] == "Bob"  # settle_ms 0: declared at once
    assert table.command("wrong") == "Bob: wrong (-1); Ann answers next"
    assert table.command("right") == "Ann: right (+2)"
    assert table.view["scores"] == {"Ann": 2, "Bob": -1, "Cat": 0} and table.view["right"] == "Ann"
    assert table.prompt("Cat")["text"] == "Ann got it. You have 0."


def test_a_refused_command_changes_nothing(tmp_path: Path) -> None:
    table = Table(tmp_path)
    flow = table.session.flow
    assert flow is not None
    log = flow.log()
    with pytest.raises(IllegalAction, match="judge from the host refused: question 1 is waiting to be armed"):
        table.command("right")
    with pytest.raises(MalformedInput, match="unknown buzzer command 'maybe'"):
        table.command("maybe")
    assert flow.log() == log and table.view["phase"] == "waiting"


def test_the_hosts_next_arms_declares_closes_and_deals_but_never_judges(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.clock.now = 101.0
    table.session.advance()
    assert table.view["phase"] == "armed"
    table.buzz("Ann", 102.0)
    table.session.advance()  # the quizmaster does not wait for the settle window
    assert table.view["answering"] == "Ann"
    with pytest.raises(IllegalAction, match="nothing to move on to"):
        table.session.advance()
    table.command("wrong")
    assert table.view["phase"] == "armed"  # Bob and Cat may still buzz
    table.session.advance()  # nobody else buzzes: the quizmaster moves on
    assert table.view["phase"] == "closed"
    table.session.advance()
    assert table.view["number"] == 2 and table.view["question"] is None  # an All In card: a numbered question
    assert table.prompt("Ann")["text"] == "Wait for the buzzers..."


def test_presses_need_a_buzz_and_a_sound_age(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.command("arm", 101.0)
    prompt = table.prompt("Ann")
    with pytest.raises(MalformedInput, match="press age is whole milliseconds"):
        table.session.handle_input("ann", prompt["id"], "buzz", {"age_ms": -5})
    flow = table.session.flow
    assert isinstance(flow, BuzzerFlow)
    with pytest.raises(MalformedInput, match="takes a buzz"):
        flow.handle("Ann", "range", {"bottom": "1", "top": "2"}, 101.5)
    assert table.view["buzzes"] == [] and flow.engine.phase == "armed"


def test_the_questions_run_out_and_the_highest_total_wins(tmp_path: Path) -> None:
    table = Table(tmp_path, {"questions": 2, "settle_ms": 0}, cards=[])
    for winner in ("Bob", "Bob"):
        table.command("arm", table.clock.now + 1)
        table.buzz(winner, table.clock.now + 1)
        table.command("right")
        table.session.advance()
    assert table.session.state == "results"
    assert table.view["winners"] == ["Bob"] and table.view["ending"] == "deck_ran_out"
    assert table.prompt("Bob")["text"] == "You win! You scored 2."


def test_questions_caps_the_cards(tmp_path: Path) -> None:
    table = Table(tmp_path, {"questions": 1, "settle_ms": 0})
    assert table.view["cards_left"] == 0


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"settle_ms": -1}, "settle_ms must be a whole number from 0 to 2000"),
        ({"settle_ms": 2.5}, "settle_ms"),
        ({"questions": 0}, "questions must be a whole number from 1 to 500"),
        ({"answer_seconds": 10}, "no answer time limit"),
        ({"lockout": "no"}, "lockout must be true or false"),
    ],
)
def test_bad_options_are_refused_at_set_up(tmp_path: Path, options: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        Table(tmp_path, options)


def test_the_stored_game_replays_and_a_settling_question_waits_again(tmp_path: Path) -> None:
    table = Table(tmp_path, {"settle_ms": 200})
    table.command("arm", 101.0)
    table.buzz("Cat", 101.5)
    table.buzz("Ann", 101.6, age_ms=300)
    assert table.session.game_id is not None
    stored = table.store.game(table.session.game_id)
    assert stored is not None
    replayed = flow_factory("buzzer")(setup_from_json(stored.setup), random.Random(0), 50.0)
    replayed.restore(stored.log, 50.0)
    assert replayed.board() == table.view
    assert replayed.deadline() == pytest.approx(50.2)  # restarted in full from the restore
    replayed.on_deadline(50.2)
    assert replayed.board()["answering"] == "Ann"


def test_undo_takes_back_a_press_and_skip_only_an_untouched_question(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.command("arm", 101.0)
    table.buzz("Cat", 102.0)
    with pytest.raises(IllegalAction, match="someone already answered"):
        table.session.skip()
    assert table.session.undo() == "took back Cat's last input (press)"
    assert table.view["phase"] == "armed" and table.prompt("Cat")["kind"] == "buzz"
    table.session.skip()  # the skipped question does not count: the next card is question 1
    assert table.view["number"] == 1 and table.view["question"] is None and table.view["cards_left"] == 1
    assert table.view["phase"] == "waiting"


def test_commands_wait_while_paused(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.session.pause()
    with pytest.raises(Paused):
        table.command("arm")
    table.session.resume()
    table.command("arm")
    assert table.view["phase"] == "armed"


BUZZER_CARDS = [DealtCard("buzzer-world/bz-0022", {"question": "Which river flows through Baghdad?",
                                                    "answer": "The Tigris", "alternatives": ["Tigris", "Dijla"],
                                                    "source": "Britannica"}),
                DealtCard("buzzer-world/bz-0001", {"question": "What is the capital of Australia?",
                                                    "answer": "Canberra", "alternatives": [], "source": "Britannica"})]


def test_the_tv_reveals_a_buzzer_cards_answer_only_after_the_verdict(tmp_path: Path) -> None:
    """Issue 35: the buzzer deck's answer is revealed on the TV after the quizmaster's verdict, never
    while the room can still buzz (a wrong answer passes to the next press: still hidden)."""
    table = Table(tmp_path, cards=BUZZER_CARDS)
    assert "answer" not in table.view
    table.command("arm", 101.0)
    table.buzz("Ann", 101.2, age_ms=0)
    table.buzz("Bob", 101.3, age_ms=0)
    table.tick(101.6)  # the settle window: Ann answers
    assert table.view["answering"] == "Ann" and "answer" not in table.view
    table.command("wrong", 102.0)  # passes to Bob: the room may still be right, nothing shown
    assert table.view["answering"] == "Bob" and "answer" not in table.view
    table.command("right", 103.0)
    assert table.view["answer"] == {"text": "The Tigris", "also": ["Tigris", "Dijla"]}
    table.session.advance()  # the next question: its answer hidden again
    assert table.view["question"] == "What is the capital of Australia?" and "answer" not in table.view
    table.command("arm", 104.0)
    table.command("close", 105.0)  # nobody buzzed: closed, the answer is shown
    assert table.view["answer"] == {"text": "Canberra", "also": []}


def test_the_revealed_answer_survives_a_resume(tmp_path: Path) -> None:
    table = Table(tmp_path, cards=BUZZER_CARDS)
    table.command("arm", 101.0)
    table.command("close", 102.0)
    resumed = CommandSession(Clock(), random.Random(1), store=table.store, flows=flow_factory)
    assert resumed.resume_stored() and resumed.flow is not None
    assert resumed.flow.board()["answer"] == table.view["answer"] == {"text": "The Tigris", "also": ["Tigris",
                                                                                                   "Dijla"]}
