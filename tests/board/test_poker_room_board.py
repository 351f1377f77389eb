"""Estimation poker's room tables on the TV (rules.md room-5, issue 30 item 1): every table side by side with its
pot, each seat's chips and bet and who is to act; the final table on the whole screen."""

from __future__ import annotations

from appliance.board.compose import choose, compose
from appliance.board.samples import room_views
from appliance.board.state import Board

VIEWS = {count: room_views(count) for count in (12, 40)}


def texts(state: dict) -> list[str]:  # type: ignore[type-arg]
    canvas, _ = compose(state, (1920, 1080), 30.0)
    return [p.text for p in canvas.placements]


def test_every_table_shows_its_pot_its_bets_and_who_is_to_act() -> None:
    for count, tables in ((12, 2), (40, 5)):
        state = VIEWS[count]["poker-tables"]
        board = Board(state)
        assert choose(board).name == "poker-tables"
        lines = state["view"]["tables"]
        assert len(lines) == tables
        shown = texts(state)
        for line in lines:
            assert f"Table {line['number']}" in shown
            assert f"Pot {line['pot']}" in shown and line["pot"] > 0
            assert f"{board.seat_number(line['to_act'])} to act" in shown
            first, second = line["players"][:2]
            assert line["bets"][first] == line["bets"][second] == 40
        # every seat of the room is on the TV (its number at least), each with its chips
        for name in state["players"]:
            assert str(board.seat_number(name["name"])) in shown
        assert shown.count("150 · bet 40") == 2 * tables


def test_the_final_table_takes_the_whole_screen() -> None:
    state = VIEWS[40]["poker-final"]
    view = state["view"]
    assert view["final_table"] is True and len(view["table_players"]) == 8
    assert choose(Board(state)).name == "poker-betting"
    canvas, _ = compose(state, (1920, 1080), 30.0)
    shown = [p.text for p in canvas.placements]
    assert all(name in shown for name in view["table_players"])
    assert view["question"]["number"] == 2  # the room's question, not the final table's own count
    assert "Estimation Poker · Question 2" in shown
    assert any(p.text.startswith("Final table") for p in canvas.placements)
    seats = [p for p in canvas.placements if p.text in view["table_players"]]
    assert max(p.rect[1] + p.rect[3] for p in seats) > 1080 * 0.6  # the seats reach down the screen


def test_a_table_of_eight_or_fewer_is_the_ordinary_table() -> None:
    state = room_views(8)["poker-tables"]
    assert "tables" not in state["view"]
    assert choose(Board(state)).name == "poker-betting"
