"""The TV draws a real buzzer game (appliance/board/scenes/buzzer.py) from the session's board state, in
every phase, and shows an order only once it is settled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from appliance.board import compose
from tests.buzzer.test_flow import PLAYERS, Table

SIZE = (1280, 720)


def shown(table: Table) -> str:
    state: dict[str, Any] = table.session.board_state(list(table.hs.values()), lambda handset: "#3366cc")
    canvas, _ = compose(state, SIZE, 30.0)
    return "\n".join(p.text for p in canvas.placements)


def test_every_phase_of_a_real_game_draws(tmp_path: Path) -> None:
    table = Table(tmp_path, {"questions": 1, "settle_ms": 150}, cards=[])
    assert "Wait for it" in shown(table)
    table.buzz("Cat", 100.5)  # too early
    table.command("arm", 101.0)
    armed = shown(table)
    assert "BUZZ NOW!" in armed and "Cat (too early)" in armed
    table.buzz("Bob", 102.0)
    settling = shown(table)
    assert "No buzz yet" in settling and "1. Bob" not in settling  # not final until the window is over
    table.buzz("Ann", 102.1, age_ms=200)
    table.tick(102.2)
    answering = shown(table)
    assert "Answering" in answering and "1. Ann" in answering and "2. Bob" in answering
    table.command("wrong")
    table.command("right")
    closed = shown(table)
    assert "Buzz order" in closed and all(name in closed for name in PLAYERS)
    table.session.advance()  # out of questions: the highest total wins
    assert "The winner is" in shown(table) and "Bob" in shown(table)
