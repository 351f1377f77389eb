"""The quizmaster's two endings (finish now and score by the game's stopped rule, or abandon) and seats
that belong to players: moved to another handset mid-question or mid-hand with nothing lost, retaken
with the seat code the quizmaster gives (the admin page; never the TV) while the player's handset is offline."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from appliance.edge.handsets import Handset
from appliance.errors import IllegalAction
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.infra.store import Store
from appliance.session.flow import GameSetup
from appliance.session.session import RESULTS, Session, setup_from_json

PLAYERS = ["Ann", "Bob", "Cat"]
ESTIMATES = [DealtCard(f"e/{i}", {"question": f"Bones in a human body? ({i})", "answer": "206",
                             "hints": ["More than 150.", "Fewer than 250."]}) for i in range(6)]
ALLIN = [DealtCard(f"a/{i}", {"statements": [f"Statement {i}{x}" for x in "abc"]}) for i in range(6)]


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def _table(tmp_path: Path, game: str, cards: list[DealtCard], options: dict[str, object] | None = None,
           players: list[str] = PLAYERS) -> tuple[Session, dict[str, Handset], Store]:
    store = Store(tmp_path / "q.db")
    session = Session(Clock(), random.Random(1), store=store, flows=flow_factory)
    hs = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in players}
    session.start_game(GameSetup(game, players, options or {}, cards), {p: p.lower() for p in players})
    return session, hs, store


def _send(session: Session, handset: Handset, kind: str, data: dict[str, object]) -> str:
    prompt, _ = session.prompt_for(handset)
    return session.handle_input(handset.id, prompt["id"], kind, data)


def _stored(store: Store, session: Session) -> tuple[str, dict[str, object]]:
    assert session.game_id is not None
    game = store.game(session.game_id)
    assert game is not None
    return game.status, game.result or {}


def test_poker_finish_now_mid_hand_gives_the_bets_back_and_most_chips_wins(tmp_path: Path) -> None:
    session, hs, store = _table(tmp_path, "poker", ESTIMATES, {"stack": 100, "ante": 10})
    for p in PLAYERS:  # hand 1: Ann wins the antes
        _send(session, hs[p], "range", {"bottom": "200" if p == "Ann" else "1", "top": "210" if p == "Ann" else "2"})
    _send(session, hs["Ann"], "bet", {"action": "check"})
    _send(session, hs["Bob"], "bet", {"action": "check"})
    _send(session, hs["Cat"], "bet", {"action": "check"})
    while session.flow.board()["phase"] == "betting":  # type: ignore[union-attr]
        to_act = session.flow.board()["to_act"]  # type: ignore[union-attr]
        _send(session, hs[to_act], "bet", {"action": "check"})
    assert session.flow.board()["stacks"] == {"Ann": 120, "Bob": 90, "Cat": 90}  # type: ignore[union-attr]
    session.advance()  # hand 2: antes in and a bet of 50 on the table, then the quizmaster stops
    for p in PLAYERS:
        _send(session, hs[p], "range", {"bottom": "1", "top": "1000"})
    to_act = session.flow.board()["to_act"]  # type: ignore[union-attr]
    _send(session, hs[to_act], "bet", {"action": "bet", "to": 50})
    session.finish_now()
    view = session.flow.board()  # type: ignore[union-attr]
    assert session.state == RESULTS and view["finished"] and view["stopped"]
    assert view["stacks"] == {"Ann": 120, "Bob": 90, "Cat": 90}  # the open hand is void: bets go back
    assert view["winners"] == ["Ann"]
    status, result = _stored(store, session)
    assert status == "finished" and result["winners"] == ["Ann"] and result["stopped"] is True
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["ending"] == "stopped" and not board["waiting"] and not board["can_advance"]


def test_confident_finish_now_while_entries_are_open_shares_the_lead(tmp_path: Path) -> None:
    cards = [DealtCard(f"c/{i}", {"question": f"Legs of a spider? ({i})", "answer": "8"}) for i in range(5)]
    session, hs, store = _table(tmp_path, "confident", cards, {"target": 15})
    _send(session, hs["Ann"], "range", {"bottom": "8", "top": "8"})  # Ann and Bob 3, Cat 1? Cat wrong
    _send(session, hs["Bob"], "range", {"bottom": "8", "top": "8"})
    _send(session, hs["Cat"], "range", {"bottom": "1", "top": "2"})
    session.advance()  # reveal
    scores = dict(session.flow.board()["scores"])  # type: ignore[union-attr]
    session.advance()  # the next question opens; Ann enters, then the quizmaster finishes the game
    _send(session, hs["Ann"], "range", {"bottom": "1", "top": "100"})
    session.finish_now()
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["scores"] == scores and view["winners"] == ["Ann", "Bob"]  # ties share (rules.md 7)
    assert _stored(store, session)[0] == "finished"


def test_squizz_finish_now_scores_the_reads_played(tmp_path: Path) -> None:
    cards = [DealtCard(f"s/{i}", {"prompt": f"Q{i}", "propositions": [{"text": t, "value": v} for t, v in
                                                                 (("x", 1), ("y", 2), ("z", 3))]})
             for i in range(12)]
    session, hs, store = _table(tmp_path, "squizz", cards)
    view = session.flow.board()  # type: ignore[union-attr]
    reader = view["question"]["reader"]
    session.finish_now()  # mid-question: the read is void, nobody has scored
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["finished"] and view["stopped"] and view["scores"] == {p: 0 for p in PLAYERS}
    assert sorted(view["winners"]) == sorted(PLAYERS) and reader in PLAYERS
    assert _stored(store, session)[0] == "finished"


def test_allin_finish_now_and_replay_from_the_store(tmp_path: Path) -> None:
    session, hs, store = _table(tmp_path, "allin", ALLIN)
    assert session.flow.board()["phase"] == "reading"  # type: ignore[union-attr]
    session.finish_now()
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["finished"] and view["stopped"] and sorted(view["winners"]) == sorted(PLAYERS)
    game = store.game(session.game_id)  # type: ignore[arg-type]
    assert game is not None and game.status == "finished"
    replay = flow_factory("allin")(setup_from_json(game.setup), random.Random(1), 0.0)
    replay.restore(game.log, 0.0)
    assert replay.finished and replay.board()["winners"] == view["winners"]


def test_abandon_stores_no_winner_and_the_board_says_so(tmp_path: Path) -> None:
    session, hs, store = _table(tmp_path, "poker", ESTIMATES, {"stack": 100, "ante": 10})
    session.end_game()
    assert _stored(store, session)[0] == "abandoned"
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["ending"] == "abandoned" and not board["waiting"]


def test_a_seat_moved_mid_question_keeps_the_players_input(tmp_path: Path) -> None:
    cards = [DealtCard(f"c/{i}", {"question": f"Legs of a spider? ({i})", "answer": "8"}) for i in range(5)]
    session, hs, store = _table(tmp_path, "confident", cards)
    _send(session, hs["Cat"], "range", {"bottom": "7", "top": "9"})
    new = Handset(id="phone-x", name="Cat-2", accepted=True, online=True)
    hs["Cat"].online = False
    board = session.board_state([*hs.values(), new], lambda _: "#fff")
    assert board["seats_away"] == ["Cat"] and "seat_codes" not in board  # the public board has no code
    codes = session.away_codes([*hs.values(), new], lambda _: "#fff")  # the admin page's (issue 32)
    code = codes["Cat"]
    assert list(codes) == ["Cat"] and len(code) == 4  # only the offline seat has a code
    with pytest.raises(IllegalAction, match="wrong seat code"):
        session.move_seat("Cat", new, hs["Cat"], "0000" if code != "0000" else "1111")
    assert session.move_seat("Cat", new, hs["Cat"], f" {code[:2]} {code[2:]} ") == "Cat's seat is now on Cat-2"
    assert session.player_of("phone-x") == "Cat" and session.player_of("cat") is None
    assert "Locked in" in str(session.prompt_for(new)[0]) or session.prompt_for(new)[0]["kind"] == "info"
    assert "7" in str(session.prompt_for(new)[0])  # Cat's own range, on the new handset
    game = store.game(session.game_id)  # type: ignore[arg-type]
    assert game is not None and game.seats["Cat"] == "phone-x"  # a restart seats the new handset
    new.online = False
    with pytest.raises(IllegalAction, match="wrong seat code"):  # a code retakes a seat once
        session.move_seat("Cat", hs["Cat"], new, code)


def test_an_online_seat_cannot_be_taken_with_a_code_and_a_held_handset_is_refused(tmp_path: Path) -> None:
    cards = [DealtCard(f"c/{i}", {"question": f"Legs? ({i})", "answer": "8"}) for i in range(5)]
    session, hs, _ = _table(tmp_path, "confident", cards)
    code = session.seat_codes["Bob"]
    thief = Handset(id="thief", name="Eve", accepted=True, online=True)
    with pytest.raises(IllegalAction, match="online"):
        session.move_seat("Bob", thief, hs["Bob"], code)
    with pytest.raises(IllegalAction, match="already holds Ann's seat"):
        session.move_seat("Bob", hs["Ann"], hs["Bob"])


def test_a_seat_moved_mid_poker_hand_acts_from_the_new_handset(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path, "poker", ESTIMATES, {"stack": 100, "ante": 10})
    for p in PLAYERS:
        _send(session, hs[p], "range", {"bottom": "1", "top": "1000"})
    to_act = session.flow.board()["to_act"]  # type: ignore[union-attr]
    new = Handset(id="phone-y", name="New", accepted=True, online=True)
    session.move_seat(to_act, new, hs[to_act])  # the quizmaster's move: no code
    assert session.prompt_for(hs[to_act])[0]["kind"] == "info"
    prompt = session.prompt_for(new)[0]
    assert prompt["kind"] == "bet"
    assert _send(session, new, "bet", {"action": "bet", "to": 30}) == "bet to 30"


def test_an_undo_note_goes_once_the_entries_close(tmp_path: Path) -> None:
    cards = [DealtCard(f"c/{i}", {"question": f"Legs? ({i})", "answer": "8"}) for i in range(5)]
    session, hs, _ = _table(tmp_path, "confident", cards)
    _send(session, hs["Cat"], "range", {"bottom": "1", "top": "2"})
    session.undo()
    board = session.board_state(hs.values(), lambda _: "#fff")
    assert board["message"] == "Taken back: Cat's last answer. Cat, please answer again."  # while Cat answers
    for p in PLAYERS:
        _send(session, hs[p], "range", {"bottom": "7", "top": "9"})
    session.advance()  # the reveal
    assert session.board_state(hs.values(), lambda _: "#fff")["message"] == ""


def test_the_buzzer_round_finishes_and_scores_too(tmp_path: Path) -> None:
    cards = [DealtCard(f"b/{i}", {"question": f"Q{i}", "answer": "8", "hints": ["a", "b"]}) for i in range(3)]
    session, hs, store = _table(tmp_path, "buzzer", cards)
    session.advance()  # the buzzers are armed: a question is being played
    session.finish_now()
    view = session.flow.board()  # type: ignore[union-attr]
    assert view["finished"] and view["stopped"] and sorted(view["winners"]) == sorted(PLAYERS)
    assert _stored(store, session)[0] == "finished"


def test_finish_now_is_refused_when_no_game_runs(tmp_path: Path) -> None:
    session, hs, _ = _table(tmp_path, "poker", ESTIMATES, {"stack": 100, "ante": 10})
    session.end_game()
    with pytest.raises(IllegalAction, match="no game is running"):
        session.finish_now()


@pytest.mark.parametrize("ending", ["finish_now", "end_game"])
def test_an_unseated_handset_is_not_told_to_take_a_seat_back_once_the_game_is_over(tmp_path: Path,
                                                                                   ending: str) -> None:
    """An audit: after Finish now or Abandon, a phone with no seat still read "To take back your seat, ...
    use the seat code on the TV", though no game runs and the TV shows no code."""
    session, hs, _ = _table(tmp_path, "confident", [DealtCard("c/1", {"question": "Legs of a spider?", "answer": "8"})])
    spare = Handset(id="spare", name="Dee", accepted=True, online=True)
    playing, _ = session.prompt_for(spare)
    # issue 31, 8: never "take back your seat" to a handset that never had one
    assert "take back your seat" not in playing["text"] and "the quizmaster seats you" in playing["text"]
    getattr(session, ending)()
    over, _ = session.prompt_for(spare)
    assert "seat" not in over["text"] and "Waiting for the next game" in over["text"], over
