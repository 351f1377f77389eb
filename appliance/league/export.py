"""The season's results as CSV for a spreadsheet: UTF-8 with a BOM (Excel reads the names right), one row
per team per league night, and any cell a spreadsheet would run as a formula (starting with = + - @)
escaped with a leading apostrophe."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from appliance.league.table import league_points

HEADER = ("result_id", "box", "plan", "title", "team", "place", "night_points", "league_points")
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> str:
    text = str(value)
    return "'" + text if text.startswith(FORMULA) else text


def season_csv(results: Iterable[Mapping[str, Any]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    for result in results:
        places = result["places"]
        points = league_points(places)  # rules.md The league 3
        for team in sorted(places, key=lambda t: (places[t], t)):
            writer.writerow([cell(v) for v in (result["result_id"], result["box"], result["plan"],
                                                result.get("title", ""), team, places[team],
                                                result["points"].get(team, 0), points[team])])
    return "\ufeff".encode() + out.getvalue().encode("utf-8")
