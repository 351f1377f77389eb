"""Estimation poker at the table: range prompts, the bet prompt offering exactly the engine's legal
actions, the action clock, the ante clock, and the folded player's voluntary reveal."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from appliance.edge.handsets import Handset
from appliance.errors import QuizboxError
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session

CARDS = [DealtCard(f"e/{i}", {"question": f"Bones in a human body? ({i})", "answer": "206",
                         "hints": ["More than 150.", "Fewer than 250."]}) for i in range(6)]
PLAYERS = ["Ann", "Bob", "Cat"]


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def _table(tmp_path: Path, options: dict[str, object]) -> tuple[Session, dict[str, Handset], Clock]:
    clock = Clock()
    session = Session(clock, random.Random(1), store=Store(tmp_path / "q.db"), flows=flow_factory)
    hs = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}
    session.start_game(GameSetup("poker", PLAYERS, options, CARDS), {p: p.lower() for p in PLAYERS})
    return session, hs, clock


def _send(session: Session, handset: Handset, kind: str, data: dict[str, object]) -> str:
    prompt, _ = session.prompt_for(handset)
    return session.handle_input(handset.id, prompt["id"], kind, data)


def test_ranges_then_bets_from_the_legal_actions(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path, {"stack": 100, "ante": 10})
    assert session.prompt_for(hs["Ann"])[0]["kind"] == "range"
    _send(session, hs["Ann"], "range", {"bottom": "203.5", "top": "207.25"})
    board = json.dumps(session.flow.board())  # type: ignore[union-attr]
    assert "203.5" not in board and "207.25" not in board  # ranges are secret until the showdown
    _send(session, hs["Bob"], "range", {"bottom": "150", "top": "250"})
    _send(session, hs["Cat"], "range", {"bottom": "300", "top": "400"})
    ann = session.prompt_for(hs["Ann"])[0]  # everyone in: betting starts, Ann (first seat) opens
    assert ann["kind"] == "bet" and ann["stack"] == 90
    assert [a["action"] for a in ann["actions"]] == ["fold", "check", "bet", "allin"]
    bet = next(a for a in ann["actions"] if a["action"] == "bet")
    assert (bet["min"], bet["max"]) == (10, 90)
    assert session.prompt_for(hs["Bob"])[0]["kind"] == "info"
    with pytest.raises(QuizboxError):  # below the minimum bet (the question's ante)
        _send(session, hs["Ann"], "bet", {"action": "bet", "to": 5})
    assert _send(session, hs["Ann"], "bet", {"action": "bet", "to": 20}) == "bet to 20"
    bob = session.prompt_for(hs["Bob"])[0]
    assert [a["action"] for a in bob["actions"]] == ["fold", "call", "raise", "allin"] and bob["to_call"] == 20
    _send(session, hs["Bob"], "bet", {"action": "fold"})
    _send(session, hs["Cat"], "bet", {"action": "fold"})
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["phase"] == "showdown" and view["stacks"]["Ann"] == 120
    assert session.prompt_for(hs["Bob"])[0]["title"] == "Show your range?"
    _send(session, hs["Bob"], "choice", {"choices": {"show": "yes"}})
    assert session.prompt_for(hs["Bob"])[0]["kind"] == "info"


def test_the_range_and_action_clocks(tmp_path: Path) -> None:
    session, hs, clock = _table(tmp_path, {"stack": 100, "ante": 10, "answer_seconds": 30, "action_seconds": 15})
    _send(session, hs["Ann"], "range", {"bottom": "1", "top": "1000"})
    _send(session, hs["Bob"], "range", {"bottom": "1", "top": "10"})
    clock.now += 30.1
    assert session.tick()  # time is up: betting starts, Cat (no range) is folded (rules.md poker 4)
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["phase"] == "betting" and view["to_act"] == "Ann"
    clock.now += 15.1
    assert session.tick()  # Ann's action clock runs out: she checks (a check was possible)
    assert session.flow.board()["to_act"] == "Bob"  # type: ignore[union-attr]
    _send(session, hs["Bob"], "bet", {"action": "bet", "to": 30})
    clock.now += 15.1
    assert session.tick()  # Ann faces a bet and is out of time: she folds
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["phase"] == "showdown" and view["stacks"]["Bob"] > 100


def test_the_ante_doubles_by_questions_and_shows_on_the_board(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path, {"stack": 1000, "ante": 10, "ante_every": {"questions": 2}})
    antes = []
    for _ in range(3):
        view = session.flow.board()  # type: ignore[union-attr]
        antes.append(view["question"]["ante"])
        for p in PLAYERS:
            _send(session, hs[p], "range", {"bottom": "1", "top": "1000"})
        for p in PLAYERS:
            if session.prompt_for(hs[p])[0]["kind"] == "bet":
                _send(session, hs[p], "bet", {"action": "fold"})
        while session.flow.board()["phase"] != "showdown":  # type: ignore[union-attr]
            actor = session.flow.board()["to_act"]  # type: ignore[union-attr]
            _send(session, hs[actor], "bet", {"action": "check"})
        session.advance()
    assert antes == [10, 10, 20]
    assert session.flow.board()["ante_next"] == {"ante": 40, "questions": 1}  # type: ignore[union-attr]


def test_the_action_clock_starts_again_when_the_same_player_opens_the_next_round(tmp_path: Path) -> None:
    session, hs, clock = _table(tmp_path, {"stack": 100, "ante": 10, "action_seconds": 15})
    for p in PLAYERS:
        _send(session, hs[p], "range", {"bottom": "1", "top": "1000"})
    _send(session, hs["Ann"], "bet", {"action": "check"})
    _send(session, hs["Bob"], "bet", {"action": "check"})
    clock.now += 14
    _send(session, hs["Cat"], "bet", {"action": "check"})  # round 1 ends; Ann opens round 2
    assert session.flow is not None and session.flow.board()["question"]["round"] == 2
    assert session.flow.deadline() == pytest.approx(session.game_time() + 15)


def test_undo_keeps_the_ante_clock(tmp_path: Path) -> None:
    session, hs, clock = _table(tmp_path, {"stack": 1000, "ante": 10, "ante_every": {"minutes": 20}})
    clock.now += 39 * 60
    _send(session, hs["Ann"], "range", {"bottom": "1", "top": "1000"})
    # question 1 started at minute 0 with ante 10; at minute 39 the ante is 20 from the next question
    assert session.flow is not None and session.flow.board(session.game_time())["ante_next"] == {
        "ante": 20, "seconds": 0}
    session.undo()  # rebuilt from the log: the ante clock must not start again
    assert session.flow.board(session.game_time())["ante_next"] == {"ante": 20, "seconds": 0}
    clock.now += 60
    assert session.flow.board(session.game_time())["ante_next"] == {"ante": 40, "seconds": 0}  # minute 40


def test_the_quizmaster_can_stop_waiting_for_a_player_to_act(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path, {"stack": 100, "ante": 10})
    for p in PLAYERS:
        _send(session, hs[p], "range", {"bottom": "1", "top": "1000"})
    _send(session, hs["Ann"], "bet", {"action": "bet", "to": 20})
    assert session.flow is not None and session.flow.board()["to_act"] == "Bob"
    session.advance()  # Bob's handset is dark: facing a bet, he folds
    assert "Bob" in session.flow.board()["question"]["folded"]
    assert session.flow.board()["to_act"] == "Cat"


def test_with_no_range_at_all_next_says_what_to_do_and_skip_gives_the_antes_back(tmp_path: Path) -> None:
    # every handset dark before a range is in: betting cannot start (everyone would be folded), and the time
    # running out changes nothing; the quizmaster's next says why and what to do (a rules audit asked)
    session, hs, clock = _table(tmp_path, {"stack": 100, "ante": 10, "answer_seconds": 30})
    clock.now += 31
    session.tick()
    assert session.flow.board()["phase"] == "ranges"  # type: ignore[union-attr]
    with pytest.raises(QuizboxError, match="nobody has entered a range yet.*skip the card"):
        session.advance()
    session.skip()
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["phase"] == "ranges" and view["question"]["number"] == 1
    assert view["stacks"] == {p: 90 for p in PLAYERS}  # the skipped card's antes came back; the next one's are in
    _send(session, hs["Ann"], "range", {"bottom": "1", "top": "1000"})
    _send(session, hs["Bob"], "range", {"bottom": "1", "top": "500"})
    session.advance()  # ranges are in: betting starts without Cat's (folded)
    assert session.flow.board()["phase"] == "betting"  # type: ignore[union-attr]


def test_a_range_can_be_changed_on_the_handset_until_betting_starts(tmp_path: Path) -> None:
    """rules.md poker-4-range-changed-before-betting: a range may be entered again until betting starts,
    the last counts. An audit found the handset locked after the first one ("Range locked", no form)."""
    session, hs, _ = _table(tmp_path, {"stack": 100, "ante": 10})
    _send(session, hs["Ann"], "range", {"bottom": "1", "top": "2"})
    again = session.prompt_for(hs["Ann"])[0]
    assert again["kind"] == "range" and again["title"].endswith("your range is in"), again
    assert again["private"]["range"] is not None  # the range in is on the handset's screen
    _send(session, hs["Ann"], "range", {"bottom": "200", "top": "210"})
    _send(session, hs["Bob"], "range", {"bottom": "1", "top": "10"})
    _send(session, hs["Cat"], "range", {"bottom": "1", "top": "10"})
    ann = session.prompt_for(hs["Ann"])[0]
    assert ann["kind"] == "bet"  # betting started: no more ranges
    assert "200" in json.dumps(ann["private"]["range"]) and "210" in json.dumps(ann["private"]["range"])  # the last


def test_the_show_your_range_screen_says_that_not_sending_keeps_it_hidden(tmp_path: Path) -> None:
    """Its one option is "Show my range" (sending shows it): an audit read it as a question without a no."""
    session, hs, _ = _table(tmp_path, {"stack": 100, "ante": 10})
    for p in PLAYERS:
        _send(session, hs[p], "range", {"bottom": "1", "top": "2"})
    _send(session, hs["Ann"], "bet", {"action": "check"})
    _send(session, hs["Bob"], "bet", {"action": "fold"})
    _send(session, hs["Cat"], "bet", {"action": "fold"})
    show = session.prompt_for(hs["Bob"])[0]
    assert show["title"] == "Show your range?" and "not sending keeps it hidden" in show["text"]


def test_a_range_sent_reads_as_sent_not_as_a_question(tmp_path: Path) -> None:
    """Issue 31 (cosmetic): the phone said "range in, change it?" beside its "Lock in" button."""
    session, hs, _ = _table(tmp_path, {"stack": 100, "ante": 10})
    _send(session, hs["Ann"], "range", {"bottom": "150", "top": "250"})
    again = session.prompt_for(hs["Ann"])[0]
    assert again["kind"] == "range" and again["title"] == "Q1: your range is in"
