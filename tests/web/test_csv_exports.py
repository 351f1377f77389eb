"""The results' CSV exports open right in Excel (issue 31, 13): UTF-8 with a byte-order mark (without it
Excel showed "QuizÃ©rables"), and a cell starting with = + - @ is written as text, never a formula; each
export is read back as a spreadsheet would read it."""

from __future__ import annotations

import csv
import io

from flask.testing import FlaskClient

from appliance.infra.store import Store
from tests.web.test_night_csv_cells import _night_with

NAMES = ("Les Quizérables", "=1+1", "+SUM(A1)", "-cmd", "@here")


def _read(body: bytes) -> list[list[str]]:
    assert body.startswith(b"\xef\xbb\xbf"), body[:12]  # the BOM Excel needs
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def test_the_games_csv_has_a_bom_and_escapes_formulas(admin: FlaskClient, store: Store) -> None:
    players = list(NAMES)
    game_id = store.create_game("confident", {"game": "confident", "players": players, "options": {},
                                              "cards": [{"id": "c1", "fields": {}}]},
                                {p: f"hs-{i}" for i, p in enumerate(players)})
    store.finish_game(game_id, {"scores": {p: -i for i, p in enumerate(players)}, "winners": [players[0]]})
    for url in ("/games/history.csv", f"/games/{game_id}.csv"):
        rows = _read(admin.get(url).get_data())
        assert rows[0][0] == "game_id"
        assert [r[6] for r in rows[1:]] == ["Les Quizérables", "'=1+1", "'+SUM(A1)", "'-cmd", "'@here"]
        assert [r[8] for r in rows[1:]] == ["0", "-1", "-2", "-3", "-4"]  # scores stay numbers


def test_the_night_csv_has_a_bom_and_escapes_formulas(admin: FlaskClient, store: Store) -> None:
    night_id = _night_with(store, {name: f"hs-{i}" for i, name in enumerate(NAMES)})
    rows = _read(admin.get(f"/night/{night_id}.csv").get_data())
    assert rows[0][0] == "place"
    assert sorted(r[1] for r in rows[1:]) == sorted(["Les Quizérables", "'=1+1", "'+SUM(A1)", "'-cmd", "'@here"])
