"""Finished games as the quizmaster reads them: who played, the points, the winners; and as CSV.

The result is the game's public board view when it ended (``Session`` stores ``flow.board()``); the
winners are the game's own (``winners`` in its view): this page never decides a rule. CSV cells that a
spreadsheet would run as a formula (a player called ``=HYPERLINK(...)``) are neutralised with a leading
apostrophe, as the deck export does.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from appliance.infra.store import StoredGame
from web import standings
from web.catalogue import GAMES

RISKY = ("=", "+", "-", "@", "\t", "\r")


def points(game: str | None, result: dict[str, Any] | None, players: Iterable[str]) -> tuple[str, dict[str, Any]]:
    """(what the numbers are, player -> number) from a result view (the game's own table, see
    :mod:`web.standings`: chips for poker and All In, the final scores for sQuizz), or ("", {})."""
    standing = standings.read(game, result, list(players))
    return standing.points_name, standing.points


def winners(result: dict[str, Any] | None) -> list[str]:
    value = result.get("winners") if isinstance(result, dict) else None
    return [str(w) for w in value] if isinstance(value, list) else []


def when(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    return datetime.fromtimestamp(timestamp, UTC).astimezone().strftime("%Y-%m-%d %H:%M")


def ending(game: StoredGame) -> str:
    """How the game ended, in words: the quizmaster's two endings are told apart from a full game."""
    if game.status == "abandoned":
        return "Abandoned by the quizmaster: no winner"
    if game.status == "finished" and isinstance(game.result, dict) and game.result.get("stopped") is True:
        return "Finished early by the quizmaster: scored as it stood"
    if game.status == "finished":
        return "Played to the end"
    return "Still running"


def summary(game: StoredGame) -> dict[str, Any]:
    players = [str(p) for p in game.setup.get("players", [])]
    kind, numbers = points(game.game, game.result, players)
    return {
        "id": game.id,
        "game": game.game,
        "name": GAMES[game.game].name if game.game in GAMES else game.game,
        "status": game.status,
        "ending": ending(game),
        "started": when(game.started),
        "ended": when(game.ended),
        "players": players,
        "seats": game.seats,
        "winners": winners(game.result),
        "points_name": kind,
        "points": numbers,
        "actions": len(game.log),
        "cards": len(game.setup.get("cards", [])),
        "options": game.setup.get("options", {}),
        "result": game.result,
    }


BOM = "\ufeff"
"""Leads every CSV export: Excel reads a file without it as the PC's own code page ("QuizÃ©rables")."""


def csv_bytes(text: str) -> bytes:
    """A CSV export's bytes: UTF-8 with its byte-order mark, which Excel needs and other programs skip."""
    return (BOM + text).encode("utf-8")


def safe_cell(value: object) -> str:
    text = "" if value is None else str(value)
    if text.startswith(RISKY) and not _plain_number(text):
        return "'" + text
    return text


def _plain_number(text: str) -> bool:
    """``-3`` or ``-2.5`` (a score) is a number to a spreadsheet, not a formula; keep it as it is."""
    body = text[1:] if text[:1] in "+-" else ""
    return bool(body) and body.replace(".", "", 1).isdigit()


COLUMNS = ("game_id", "game", "status", "started", "ended", "seat", "player", "handset", "points", "winner")


def to_csv(games: Iterable[StoredGame]) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for game in games:
        s = summary(game)
        for seat, player in enumerate(s["players"], start=1):
            writer.writerow([safe_cell(v) for v in (
                s["id"], s["game"], s["status"], s["started"], s["ended"], seat, player,
                s["seats"].get(player, ""), s["points"].get(player, ""),
                "yes" if player in s["winners"] else "no")])
    return out.getvalue()
