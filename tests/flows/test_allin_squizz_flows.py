"""All In and sQuizz at the table: the prompts each seat gets, and secrets that never reach the board or
another player's handset before the rules reveal them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from appliance.edge.handsets import Handset
from appliance.errors import QuizboxError
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import Session

ALLIN_CARDS = [DealtCard("a/1", {"statements": ["I have been on TV", "I can juggle", "I have met a king"]}),
               DealtCard("a/2", {"statements": ["I have a cat", "I can whistle", "I have run a marathon"]})]
SQUIZZ_CARDS = [DealtCard(f"s/{i}", {"prompt": f"Height of tower {i}", "unit": "m", "propositions": [
    {"label": "Big Ben", "value": "96"}, {"label": "Eiffel", "value": "330"},
    {"label": "Pisa", "value": "57"}]}) for i in range(12)]


def _table(tmp_path: Path, game: str, players: list[str], cards: list[DealtCard],
           options: dict[str, object] | None = None) -> tuple[Session, dict[str, Handset]]:
    session = Session(lambda: 0.0, random.Random(3), store=Store(tmp_path / "q.db"), flows=flow_factory)
    hs = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in players}
    session.start_game(GameSetup(game, players, options or {}, cards), {p: p.lower() for p in players})
    return session, hs


def _send(session: Session, handset: Handset, kind: str, data: dict[str, object]) -> str:
    prompt, _ = session.prompt_for(handset)
    return session.handle_input(handset.id, prompt["id"], kind, data)


def test_allin_reader_then_splits_then_reveal(tmp_path: Path) -> None:
    session, hs = _table(tmp_path, "allin", ["Ann", "Bob", "Cat"], ALLIN_CARDS, {"chips": 10})
    reader = session.prompt_for(hs["Ann"])[0]
    assert reader["kind"] == "choice" and [f["name"] for f in reader["fields"]] == ["pick", "answer", "exclude"]
    assert session.prompt_for(hs["Bob"])[0]["title"] == "Listen"
    with pytest.raises(QuizboxError):  # a bettor cannot read
        _send(session, hs["Bob"], "split", {"split": {"true": 10, "false": 0}})
    _send(session, hs["Ann"], "choice", {"choices": {"pick": "2", "answer": "false"}})
    board = json.dumps(session.flow.board())  # type: ignore[union-attr]
    assert '"answer": false' not in board and "king" in board  # the statement is read aloud, the answer is not
    bob = session.prompt_for(hs["Bob"])[0]
    assert bob["kind"] == "split" and bob["total"] == 10 and "king" in bob["text"] and "false" not in json.dumps(
        bob.get("private"))
    with pytest.raises(QuizboxError, match="10"):  # all chips, exactly
        _send(session, hs["Bob"], "split", {"split": {"true": 3, "false": 3}})
    _send(session, hs["Bob"], "split", {"split": {"true": 4, "false": 6}})
    assert "4" not in json.dumps(session.flow.board()["question"].get("splits", {}))  # type: ignore[union-attr]
    _send(session, hs["Cat"], "split", {"split": {"true": 10, "false": 0}})
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["question"]["revealed"] and view["chips"] == {"Ann": 10, "Bob": 6, "Cat": 0}
    assert session.prompt_for(hs["Cat"])[0]["title"] == "It was FALSE"
    session.advance()  # the next card goes to the next reader
    assert session.prompt_for(hs["Bob"])[0]["kind"] == "choice"


def test_squizz_values_stay_with_the_reader_and_tokens_stay_hidden(tmp_path: Path) -> None:
    session, hs = _table(tmp_path, "squizz", ["Ann", "Bob", "Cat"], SQUIZZ_CARDS)
    reader = next(p for p in hs if session.prompt_for(hs[p])[0]["kind"] == "info")
    answerers = [p for p in hs if p != reader]
    assert "330" in session.prompt_for(hs[reader])[0]["text"]  # the reader holds the card
    for p in answerers:
        prompt = session.prompt_for(hs[p])[0]
        assert prompt["kind"] == "token" and prompt["tokens"] == [1, 2, 3, 4, 5, 6] and "330" not in prompt["text"]
    assert "330" not in json.dumps(session.flow.board())  # type: ignore[union-attr]
    _send(session, hs[answerers[0]], "token", {"answer": "B", "token": 6})
    with pytest.raises(QuizboxError):  # a token is used once
        _send(session, hs[answerers[0]], "token", {"answer": "B", "token": 6})
    _send(session, hs[answerers[1]], "token", {"answer": "A", "token": 5})
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["question"]["revealed"] and view["scores"] is None  # who was right is public, points are not
    assert '"token"' not in json.dumps(view)
    assert session.prompt_for(hs[answerers[0]])[0]["private"]["tokens"] == [1, 2, 3, 4, 5]


def test_squizz_refuses_a_deck_too_short_to_finish(tmp_path: Path) -> None:
    session = Session(lambda: 0.0, random.Random(3), store=Store(tmp_path / "q.db"), flows=flow_factory)
    with pytest.raises(QuizboxError, match="needs 9 cards, got 2"):  # 3 players: 3 reads each
        session.start_game(GameSetup("squizz", ["Ann", "Bob", "Cat"], {}, SQUIZZ_CARDS[:2]),
                           {"Ann": "ann", "Bob": "bob", "Cat": "cat"})
    assert session.state == "lobby" and session.flow is None


# -- a player who never enters: the host's Next and the time limit close (the product's decision) ----------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _timed(tmp_path: Path, game: str, cards: list[DealtCard], options: dict[str, object]
           ) -> tuple[Session, dict[str, Handset], Clock]:
    clock = Clock()
    players = ["Ann", "Bob", "Cat"]
    session = Session(clock, random.Random(3), store=Store(tmp_path / "q.db"), flows=flow_factory)
    hs = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in players}
    session.start_game(GameSetup(game, players, options, cards), {p: p.lower() for p in players})
    return session, hs, clock


def _board(session: Session) -> dict[str, Any]:
    assert session.flow is not None
    board: dict[str, Any] = session.flow.board()
    return board


def test_allin_next_closes_the_splits_without_a_lost_handset_and_the_game_goes_on(tmp_path: Path) -> None:
    session, hs = _table(tmp_path, "allin", ["Ann", "Bob", "Cat"], ALLIN_CARDS, {"chips": 10})
    assert session.flow is not None and session.flow.can_advance()  # even the read can be closed (a lost reader)
    _send(session, hs["Ann"], "choice", {"choices": {"pick": "0", "answer": "true"}})
    _send(session, hs["Bob"], "split", {"split": {"true": 3, "false": 7}})
    assert session.flow.can_advance()  # Cat's handset is gone: Next stops waiting for it
    session.advance()
    view = _board(session)
    assert view["phase"] == "card" and view["question"]["sat_out"] == ["Cat"]
    assert view["chips"] == {"Ann": 10, "Bob": 3, "Cat": 10}  # Cat sat it out, keeping every chip
    assert "kept your chips" in session.prompt_for(hs["Cat"])[0]["text"]
    session.advance()  # the next card, to the next reader
    assert session.prompt_for(hs["Bob"])[0]["kind"] == "choice"


def test_allin_time_limit_closes_the_splits_on_its_own(tmp_path: Path) -> None:
    session, hs, clock = _timed(tmp_path, "allin", ALLIN_CARDS, {"chips": 10, "answer_seconds": 30})
    # the reader's choice is timed too (a reader whose handset is gone passes the card on)
    assert session.flow is not None and session.flow.deadline() == pytest.approx(session.game_time() + 30)
    clock.now += 10
    _send(session, hs["Ann"], "choice", {"choices": {"pick": "1", "answer": "false"}})
    assert session.flow.deadline() == pytest.approx(session.game_time() + 30)
    _send(session, hs["Cat"], "split", {"split": {"true": 10, "false": 0}})
    clock.now += 29.9
    assert session.tick() is False and _board(session)["phase"] == "betting"
    clock.now += 0.2
    assert session.tick() is True
    view = _board(session)
    assert view["question"]["closed"] == "timeout" and view["question"]["sat_out"] == ["Bob"]
    assert view["chips"] == {"Ann": 10, "Bob": 10, "Cat": 0}
    assert session.flow.deadline() is None


def test_squizz_next_closes_the_answers_and_the_missing_player_uses_their_lowest_token(tmp_path: Path) -> None:
    session, hs = _table(tmp_path, "squizz", ["Ann", "Bob", "Cat"], SQUIZZ_CARDS)
    assert session.flow is not None and session.flow.can_advance()  # answers are open
    _send(session, hs["Bob"], "token", {"answer": "A", "token": 6})  # Cat never answers
    session.advance()
    view = _board(session)
    assert view["question"]["revealed"] and view["question"]["missed"] == ["Cat"]
    assert '"token"' not in json.dumps(view)  # the used-up token stays on Cat's handset
    cat = session.prompt_for(hs["Cat"])[0]
    assert cat["title"].startswith("It was") and "token 1" in cat["text"]
    assert cat["private"]["tokens"] == [2, 3, 4, 5, 6]
    session.advance()  # the next roll, the next reader (Bob)
    prompt = session.prompt_for(hs["Cat"])[0]
    assert prompt["kind"] == "token" and prompt["tokens"] == [2, 3, 4, 5, 6]


def test_squizz_time_limit_closes_the_answers_and_a_paused_clock_stands_still(tmp_path: Path) -> None:
    session, hs, clock = _timed(tmp_path, "squizz", SQUIZZ_CARDS, {"answer_seconds": 20})
    assert session.flow is not None and session.flow.deadline() == pytest.approx(session.game_time() + 20)
    clock.now += 5
    session.pause()
    clock.now += 600  # paused: the clock stands still
    assert session.tick() is False and _board(session)["phase"] == "answering"
    session.resume()
    clock.now += 14.9
    assert session.tick() is False
    _send(session, hs["Bob"], "token", {"answer": "B", "token": 2})
    clock.now += 0.2
    assert session.tick() is True
    view = _board(session)
    assert view["question"]["closed"] == "timeout" and view["question"]["missed"] == ["Cat"]
    # the close is in the stored log: a restart agrees
    resumed = Session(Clock(), store=session.store, flows=flow_factory)
    assert resumed.resume_stored() and resumed.flow is not None
    assert resumed.flow.board() == session.flow.board() and resumed.flow.log() == session.flow.log()


def test_allin_a_reader_who_never_reads_passes_the_card_on(tmp_path: Path) -> None:
    session, hs = _table(tmp_path, "allin", ["Ann", "Bob", "Cat"], ALLIN_CARDS, {"chips": 10})
    assert session.prompt_for(hs["Ann"])[0]["kind"] == "choice"  # Ann reads; her handset is gone
    session.advance()  # the quizmaster stops waiting: no read, nobody bets, nobody loses a chip
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["question"]["revealed"] and view["chips"] == {"Ann": 10, "Bob": 10, "Cat": 10}
    session.advance()  # the next card goes to the next reader
    assert session.prompt_for(hs["Bob"])[0]["kind"] == "choice"


def test_a_squizz_card_reads_its_label_as_the_text_and_an_older_stored_card_its_text() -> None:
    """A proposition's label is its text, its letter its position; a card stored by an earlier version (the
    letter as label plus a text) still deals with its text."""
    from appliance.flows.squizz import proposition_text

    assert proposition_text({"label": "Eiffel Tower", "value": "330"}) == "Eiffel Tower"
    assert proposition_text({"label": "A", "text": "Eiffel Tower", "value": "330"}) == "Eiffel Tower"
    assert proposition_text("A") == ""


def test_a_game_ended_midway_says_game_over_on_every_seated_handset(tmp_path: Path) -> None:
    """A maker's audit: after the quizmaster's end, only the player still asked for a split saw "Game over";
    the reader and the player already locked in stayed on a waiting screen until the lobby."""
    session, hs = _table(tmp_path, "allin", ["Ann", "Bob", "Cat"], ALLIN_CARDS, {"chips": 10})
    _send(session, hs["Ann"], "choice", {"choices": {"pick": "0", "answer": "true"}})
    _send(session, hs["Bob"], "split", {"split": {"true": 4, "false": 6}})
    assert session.prompt_for(hs["Bob"])[0]["wait"] is True  # locked in, waiting for Cat
    session.end_game()
    for name in ("Ann", "Bob", "Cat"):
        prompt = session.prompt_for(hs[name])[0]
        assert (prompt["kind"], prompt["title"], prompt["wait"]) == ("info", "Game over", False), (name, prompt)
