"""What the TV and each handset may show of a game of estimation poker of any size (rules.md Estimation
poker 13-15 and "The room" 2).

Up to 8 players the views are the ordinary table's (:mod:`.views`); the engine's base adds each player's
seat number (``seat_numbers``, and ``seat`` in a handset's view). At
room tables the public view is the ordinary view of one table, the one still playing (``table``; the
board draws it as it draws a game of 8), with the room's chips, outs and end over it, each player's seat
table (``table_of``) and every table's line (``tables``). Nothing secret is added:
a range shows only as the ordinary views show it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from appliance.games.base import JSON
from appliance.games.poker import views

if TYPE_CHECKING:
    from appliance.games.poker.room import RoomPokerEngine


def public_view(engine: RoomPokerEngine) -> JSON:
    if not engine.room:
        return views.public_view(engine.tables[0])
    number = engine.featured()
    view = views.public_view(engine.tables[number - 1])
    question = engine.current
    open_question = question is not None and not question.settled
    stacks = engine.stacks
    view.update({
        "stacks": stacks,
        "out": [p for p in engine.players if p not in question.dealt] if question is not None and open_question
        else [p for p in engine.players if stacks[p] == 0],
        "finished": engine.finished,
        "winners": engine.winners(),
        "ending": engine.ending.value if engine.ending else None,
        "table": number,
        "table_players": list(engine.tables[number - 1].players),
        "table_of": {p: engine.table_number(p) if stacks[p] > 0 else None for p in engine.players},
        "final_table": engine.final,
        "tables": _tables(engine),
    })
    if question is not None and isinstance(view.get("question"), dict):  # the room's count, not the final table's
        view["question"]["number"] = question.number
    if open_question or engine.finished:
        view["next_first"] = None
    return view


def _tables(engine: RoomPokerEngine) -> list[JSON]:
    """One line per table: who sits there with chips, whose turn it is, whether it plays this question, and its
    hand's public facts (pot, bets this round, folds, all-ins, who has a range in) while it is played."""
    question = engine.current
    lines: list[JSON] = []
    for number, table in enumerate(engine.tables, 1):
        hand = question.hands.get(number) if question is not None else None
        holders = table.holders()
        playing = hand is not None and not hand.settled
        betting = hand.round if hand is not None and playing else None
        lines.append({
            "number": number,
            "players": holders,
            "waiting": len(holders) == 1,
            "to_act": table.to_act if hand is not None else None,
            "hand_over": hand is not None and hand.settled,
            "pot": sum(hand.put_in.values()) if hand is not None and playing else 0,
            # what the ordinary view shows of its own table, for every table (the TV's room tables)
            "bets": {p: betting.bet(p) for p in hand.dealt} if hand is not None and betting else {},
            "folded": [p for p in hand.dealt if p in hand.folded] if hand is not None and playing else [],
            "all_in": table.all_in(hand) if hand is not None and playing else [],
            "ranges_in": [p for p in hand.dealt if p in hand.ranges] if hand is not None and playing else [],
        })
    return lines


def private_view(engine: RoomPokerEngine, player: str) -> JSON:
    table = engine.table_of(player)
    if not engine.room:
        assert table is not None
        return views.private_view(table, player)
    hand = engine.hand(player)
    if table is None:  # out before the final table formed
        return {"player": player, "stack": 0, "range": None, "may_enter_range": False, "bet": 0, "to_call": 0,
                "your_turn": False, "legal": [], "may_reveal": False, "table": None, "waiting": False}
    view = views.private_view(table, player)
    question = engine.current
    if hand is None:  # out of this question, or alone at a table that plays no more hands
        view.update({"range": None, "may_enter_range": False, "bet": 0, "to_call": 0, "may_reveal": False})
    elif question is None or not question.settled:
        view["may_reveal"] = False  # ranges are shown once the question is over at every table
    view.update({"table": engine.table_number(player),
                 "waiting": hand is None and engine.stacks[player] > 0 and not engine.finished})
    return view
