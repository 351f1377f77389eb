"""Board states of a quiz night made by the real session and night runner (no hand-written views):
for the night scenes' snapshot tests and docs/night.md's screenshots (``python -m tests.night.board_states``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.session.night import NightRunner
from appliance.session.session import Session

PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve")
COLOURS = {"ann": "#E69F00", "bob": "#56B4E9", "cat": "#009E73", "dan": "#CC79A7", "eve": "#F0E442"}


class Clock:
    def __init__(self) -> None:
        self.now = 5000.0

    def __call__(self) -> float:
        return self.now


def _table() -> tuple[Session, NightRunner, dict[str, Handset], Clock]:
    clock = Clock()
    session = Session(clock, box_name="The Red Lion", flows=flow_factory)
    runner = NightRunner(session)
    handsets = {p: Handset(id=p.lower(), name=p, accepted=True, online=True) for p in PLAYERS}
    runner.start({p: p.lower() for p in PLAYERS}, [
        {"game": "buzzer", "title": "Fastest finger first"},
        {"game": "buzzer", "title": "Music round", "seats": ["Ann", "Bob", "Dan", "Eve"]},
        {"game": "buzzer", "title": "The final", "multiplier": 2, "seats": ["Ann", "Bob", "Cat", "Eve"]},
    ], "Tuesday quiz night")
    return session, runner, handsets, clock


def _buzzer_round(session: Session, handsets: dict[str, Handset], rights: list[str]) -> None:
    for player in rights:
        session.flow_command("arm", {})
        prompt, _ = session.prompt_for(handsets[player])
        session.handle_input(handsets[player].id, prompt["id"], "buzz", {"age_ms": 0})
        session.advance()
        session.flow_command("right", {})
        session.advance()


def _state(session: Session, handsets: dict[str, Handset]) -> dict[str, Any]:
    return session.board_state(handsets.values(), lambda hid: COLOURS[hid])


def night_states() -> list[tuple[str, dict[str, Any], float]]:
    """(name, board state, animation clock) for each night scene."""
    session, runner, handsets, clock = _table()
    states: list[tuple[str, dict[str, Any], float]] = [("night-before", _state(session, handsets), 5.0)]
    runner.start_round()
    _buzzer_round(session, handsets, ["Cat", "Cat", "Ann"])
    runner.finish_round()
    runner.start_round()
    _buzzer_round(session, handsets, ["Bob", "Bob", "Dan"])
    runner.finish_round()
    runner.release()  # the round's own final screen makes way for the standing (rules.md Quiz night 6)
    clock.now += 5  # the standing's animation has played: NEXT starts the next round now
    standing = _state(session, handsets)
    states += [("night-standing-counting", standing, 1.0), ("night-standing", standing, 5.0)]
    runner.interval(600)
    clock.now += 135
    states.append(("night-interval", _state(session, handsets), 0.0))
    runner.interval(0)
    runner.start_round()
    _buzzer_round(session, handsets, ["Ann", "Cat"])
    runner.finish_round()
    assert runner.engine is not None
    assert runner.engine.phase == "tiebreak", runner.engine.standing()
    runner.tiebreak_card("How many steps lead to the top of the Eiffel Tower?", "1665")
    runner.enter_number("Ann", "1500")
    states.append(("night-tiebreak", _state(session, handsets), 0.0))
    runner.enter_number("Cat", "1710")
    runner.release()  # the deciding card's answer and numbers make way for the podium
    states.append(("night-podium", _state(session, handsets), 6.0))
    return states


def main(argv: list[str]) -> int:
    """Write the night scenes at 1280x720 to a folder (docs/img by default); with ``--references``, the
    snapshot test's reference images (tests/board/reference/night-*.png) instead."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from appliance.board import render

    if argv == ["--references"]:
        from tests.board.snapshots import SIZES, frame, reference_path

        for name, state, now in night_states():
            for key in SIZES:
                pygame.image.save(frame(state, now, key), str(reference_path(name, key)))
        print(f"wrote {len(night_states()) * len(SIZES)} night reference images")
        return 0
    folder = Path(argv[0]) if argv else Path(__file__).resolve().parents[2] / "docs" / "img"
    folder.mkdir(parents=True, exist_ok=True)
    for name, state, now in night_states():
        if name in ("night-standing", "night-podium", "night-interval", "night-tiebreak"):
            pygame.image.save(render(state, (1280, 720), now), str(folder / f"board-{name}.png"))
            print(folder / f"board-{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
