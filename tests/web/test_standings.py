"""The live page's reading of each game's public view (web/standings.py), from the games' own flows:
the points table, whose move it is and what the host's Next does now."""

from __future__ import annotations

import pytest

from tests.web.tables import PLAYERS, answer, play_to_the_end, start
from web import standings


def _read(flow: object) -> standings.Standing:
    board = flow.board()  # type: ignore[attr-defined]
    return standings.read(board["game"], board, list(PLAYERS))


def test_confident_waits_for_ranges_then_reveals_then_deals() -> None:
    flow = start("confident", {"target": 4})
    s = _read(flow)
    assert (s.points_name, s.points) == ("Points (target 4)", {"Ann": 0, "Bob": 0, "Cat": 0})
    assert (s.turn, s.step) == ("Waiting for Ann, Bob, Cat", "Close entries")
    answer(flow, "Bob", {"bottom": "6", "top": "10"})
    assert _read(flow).turn == "Waiting for Ann, Cat"  # who answered is public, what they wrote is not
    answer(flow, "Ann", {"bottom": "8", "top": "8"})
    answer(flow, "Cat", {"bottom": "100", "top": "200", "double": True})
    s = _read(flow)
    assert (s.turn, s.step) == ("Entries closed", "Reveal")
    flow.advance(2.0)  # the reveal: Ann's size-0 range is the smallest correct one (rules.md Confident 2)
    s = _read(flow)
    assert s.points == {"Ann": 3, "Bob": 1, "Cat": 0}
    assert (s.turn, s.step) == ("", "Next question")
    flow.advance(3.0)
    assert _read(flow).step == "Close entries"


def test_confident_with_the_deck_out_says_next_finishes_and_a_finished_game_has_no_turn() -> None:
    flow = start("confident", {"target": 50}, cards=[])
    assert _read(flow).step == ""  # no card at all: the game ended at once (rules.md Confident 7)
    flow = start("confident", {"target": 50})
    for card in range(2):
        for player in PLAYERS:
            answer(flow, player, {"bottom": "1", "top": "100"})
        flow.advance(2.0)
        if card == 0:
            flow.advance(3.0)
    assert _read(flow).step == "Finish: no cards left"
    flow.advance(4.0)
    s = _read(flow)
    assert flow.finished and (s.turn, s.step) == ("", "")
    assert s.points == {"Ann": 6, "Bob": 6, "Cat": 6}  # all correct, one size: all score 3 (rules.md Confident 3)


def test_poker_waits_for_ranges_then_names_the_player_to_act() -> None:
    flow = start("poker", {"stack": 100, "ante": 10})
    s = _read(flow)
    assert (s.points_name, s.turn, s.step) == ("Chips", "Waiting for Ann, Bob, Cat (ranges)", "")
    answer(flow, "Cat", {"bottom": "6", "top": "10"})
    s = _read(flow)
    assert (s.turn, s.step) == ("Waiting for Ann, Bob (ranges)", "Start betting")
    answer(flow, "Ann", {"bottom": "1", "top": "100"})
    answer(flow, "Bob", {"bottom": "7", "top": "9"})
    view = flow.board()
    s = _read(flow)
    assert view["phase"] == "betting" and s.turn == f"{view['to_act']} to act" and s.step == ""
    assert s.points == {p: 90 for p in PLAYERS}  # the ante is in the pot


def test_all_in_names_the_reader_then_the_bettors_then_the_next_reader() -> None:
    flow = start("allin", {"chips": 10})
    s = _read(flow)
    assert (s.points_name, s.points) == ("Chips", {"Ann": 10, "Bob": 10, "Cat": 10})
    assert s.turn == "Ann reads: choosing a statement"
    answer(flow, "Ann", {"choices": {"pick": "1", "answer": "false"}})
    assert _read(flow).turn == "Waiting for Bob, Cat (splits)"
    answer(flow, "Bob", {"split": {"true": 4, "false": 6}})
    answer(flow, "Cat", {"split": {"true": 0, "false": 10}})
    s = _read(flow)
    assert s.points == {"Ann": 10, "Bob": 6, "Cat": 10}  # chips on the wrong side leave (rules.md All In 5)
    assert (s.turn, s.step) == ("Next reader: Bob", "Next card")


def test_squizz_shows_correct_answers_while_playing_and_points_at_the_end() -> None:
    flow = start("squizz")
    s = _read(flow)
    assert (s.points_name, s.points) == ("Correct answers", {"Ann": 0, "Bob": 0, "Cat": 0})
    assert s.turn == "Ann reads · Waiting for Bob, Cat"
    tokens = flow.prompt("Bob")["tokens"]
    answer(flow, "Bob", {"answer": "A", "token": tokens[-1]})
    assert _read(flow).turn == "Ann reads · Waiting for Cat"
    view = play_to_the_end(flow)
    s = _read(flow)
    # token values stay hidden until the end (rules.md sQuizz 5): only now is the table points
    assert (s.points_name, s.points) == ("Points", view["scores"])
    assert (s.turn, s.step) == ("", "")


@pytest.mark.parametrize("game", ["confident", "poker", "allin", "squizz"])
def test_every_game_played_to_the_end_reads_its_winners_table(game: str) -> None:
    options = {"confident": {"target": 6}, "poker": {"stack": 40, "ante": 10}, "allin": {"chips": 4},
               "squizz": {}}[game]
    view = play_to_the_end(start(game, options))
    s = standings.read(game, view, list(PLAYERS))
    key = {"confident": "scores", "poker": "stacks", "allin": "chips", "squizz": "scores"}[game]
    assert s.points == view[key] and list(s.points) == list(PLAYERS)
    assert view["winners"] and (s.turn, s.step) == ("", "")


def test_an_unknown_game_gets_the_generic_reading() -> None:
    view = {"scores": {"Ann": 2, "Bob": 1}, "waiting_for": ["Bob"]}
    s = standings.read("guess", view, ["Ann", "Bob"])
    assert (s.points_name, s.points, s.turn, s.step) == ("Points", {"Ann": 2, "Bob": 1}, "Waiting for Bob", "")
    assert standings.read("guess", {"scores": {"Zed": 1}}, ["Ann"]).points == {}  # not the seated players
    assert standings.read(None, None) == standings.Standing()
