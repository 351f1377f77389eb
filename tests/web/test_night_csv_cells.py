"""The night's CSV export (``/night/<id>.csv``) writes a cell a spreadsheet would run as a formula as text.

A phone's name is the guest's own text (web/phone.py allows any printable text up to 24 characters, so
``=HYPERLINK(...)`` or ``=cmd|...`` is a name), and the night plan offers each handset's name as the
player's name. The night's CSV neutralises such a cell with a leading apostrophe, with the games' own
helper (web/results.py ``safe_cell``, as the deck export does in appliance/decks/io.py), so the
quizmaster's spreadsheet shows the name instead of running it; scores stay numbers. Its Content-Type
names the charset once. (Before: the names were written raw, and the charset was named twice.)
"""

from __future__ import annotations

import csv
import io
import re

from flask.testing import FlaskClient

from appliance.edge.handsets import Handset
from appliance.flows import flow_factory
from appliance.infra.store import Store
from appliance.session.night import NightRunner
from appliance.session.session import Session
from web.phone import _clean_name

FORMULA = '=HYPERLINK("//x.io/a")'  # 22 characters: a name a phone may take


def _night_with(store: Store, names: dict[str, str]) -> int:
    """A night the real session and runner played and stored: one buzzer round, the first name buzzes."""
    session = Session(lambda: 100.0, store=store, flows=flow_factory)
    runner = NightRunner(session, store)
    runner.start(names, [{"game": "buzzer", "title": "Warm-up"}], "Friday night")
    runner.start_round()
    session.flow_command("arm", {})
    first, handset_id = next(iter(names.items()))
    handset = Handset(id=handset_id, name=first, accepted=True, online=True)
    prompt, _ = session.prompt_for(handset)
    session.handle_input(handset_id, prompt["id"], "buzz", {"age_ms": 0})
    session.advance()
    session.flow_command("right", {})
    runner.finish_round()
    assert runner.night_id is not None
    return runner.night_id


def test_a_formula_as_a_player_name_is_neutralised_in_the_night_csv(admin: FlaskClient, store: Store) -> None:
    assert _clean_name(FORMULA) == FORMULA  # a phone may join under this name
    night_id = _night_with(store, {FORMULA: "hs-1", "@SUM(1+1)*cmd": "hs-2", "Bob": "hs-3"})
    response = admin.get(f"/night/{night_id}.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(response.get_data().decode("utf-8-sig"))))
    players = sorted(row[1] for row in rows[1:])
    # as the games' CSV does (tests/web/test_games.py): a leading apostrophe, so the cell is text
    assert players == sorted(["'" + FORMULA, "'@SUM(1+1)*cmd", "Bob"]), players
    # the places, points and totals are still numbers to a spreadsheet (no apostrophe before a score)
    numbers = [cell for row in rows[1:] for cell in (row[0], *row[2:])]
    assert numbers and all(re.fullmatch(r"-?\d+(\.\d+)?", cell) for cell in numbers), rows
