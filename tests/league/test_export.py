"""The season's CSV: BOM, one row per team and night, formulas escaped (rules.md The league 3 points)."""

from __future__ import annotations

import csv
import io

from appliance.league.export import season_csv


def test_the_csv_has_a_bom_its_rows_and_no_live_formula() -> None:
    result = {"result_id": "pub-a-n1-x", "box": "pub-a", "plan": "week-1", "title": "Week 1",
              "places": {"=HYPERLINK(\"x\")": 1, "Café Owls": 2, "-1 Club": 3, "@home": 3},
              "points": {"=HYPERLINK(\"x\")": 4, "Café Owls": 3, "-1 Club": 1, "@home": 1}}
    raw = season_csv([result])
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw[3:].decode("utf-8"))))
    assert rows[0][4:] == ["team", "place", "night_points", "league_points"]
    # n = 4: first 3 below -> 100; second 2 below -> 66.67 -> 67; the two thirds none below -> 0
    assert [r[4:] for r in rows[1:]] == [["'=HYPERLINK(\"x\")", "1", "4", "100"], ["Café Owls", "2", "3", "67"],
                                          ["'-1 Club", "3", "1", "0"], ["'@home", "3", "1", "0"]]
