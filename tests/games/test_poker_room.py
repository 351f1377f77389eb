"""Estimation poker for the room (rules.md Estimation poker 13-15): the tables, the waiting player, the final
table, the room's end, the views' seat numbers and tables; hypothesis properties over random games of 9 to 40
players (chips conserved across the tables, every player with chips at exactly one table, the final table
forming exactly when the rule says, a refused input changing nothing, the log rebuilding the state)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance.errors import ConfigError, IllegalAction
from appliance.games.base import HOST, Action
from appliance.games.poker.actions import (
    AllIn,
    Bet,
    Call,
    Check,
    EndGame,
    EnterRange,
    Fold,
    Raise,
    Reveal,
    StartBetting,
    StartQuestion,
)
from appliance.games.poker.engine import PokerEngine
from appliance.games.poker.refusals import NoRanges, NotInQuestion, TableHandOver, WaitingAlone
from appliance.games.poker.room import RoomPokerEngine, deal_tables
from tests.games.test_poker_properties import Tape

HINTS = ("hint one", "hint two")


def names(count: int) -> list[str]:
    return [f"p{n:02d}" for n in range(1, count + 1)]


def card(ante: int = 10, answer: int = 50) -> StartQuestion:
    return StartQuestion.deal("How many?", Decimal(answer), HINTS, ante)


# -- the tables (rules.md Estimation poker 13) ------------------------------------------------------------


@pytest.mark.parametrize(("count", "sizes"), [(9, [5, 4]), (16, [8, 8]), (17, [6, 6, 5]), (24, [8, 8, 8]),
                                              (25, [7, 6, 6, 6]), (40, [8] * 5)])
def test_tables_are_dealt_round_robin_in_seat_order(count: int, sizes: list[int]) -> None:
    players = names(count)
    tables = deal_tables(players)
    assert [len(t) for t in tables] == sizes
    tables_count = len(sizes)
    for seat, player in enumerate(players):
        assert player in tables[seat % tables_count]  # seat 1 to table 1, seat 2 to table 2, ...
    assert all(list(t) == [p for p in players if p in t] for t in tables)  # the room's order, restricted


def test_a_game_of_eight_or_fewer_is_one_ordinary_table_with_the_first_option() -> None:
    players = names(8)
    room = RoomPokerEngine(players, {"first": "p03", "stack": 50})
    plain = PokerEngine(players, {"first": "p03", "stack": 50})
    assert not room.room and len(room.tables) == 1
    for action in (card(), *(EnterRange(p, Decimal(0), Decimal(100)) for p in players), StartBetting.now(),
                   Bet("p03", 20), Call("p04"), Fold("p05")):
        room.apply(action)
        plain.apply(action)
    assert room.stacks == plain.stacks and room.to_act == plain.to_act == "p06"
    view = room.public_view()
    assert view["seat_numbers"] == {p: n for n, p in enumerate(players, 1)}
    assert "tables" not in view and "table_of" not in view
    assert {k: v for k, v in view.items() if k != "seats"} == plain.public_view()


def test_first_is_not_an_option_at_room_tables() -> None:
    with pytest.raises(ConfigError, match="first"):
        RoomPokerEngine(names(9), {"first": "p01"})
    with pytest.raises(ConfigError, match="2 to 40"):
        RoomPokerEngine(names(41), {})
    assert RoomPokerEngine(names(40), {}).room


def started(count: int, stack: int = 100) -> RoomPokerEngine:
    engine = RoomPokerEngine(names(count), {"stack": stack})
    engine.apply(card())
    return engine


def test_ranges_lock_at_every_table_together_and_each_table_has_its_own_turns() -> None:
    engine = started(9)  # table 1: p01 p03 p05 p07 p09, table 2: p02 p04 p06 p08
    for player in names(9):
        engine.apply(EnterRange(player, Decimal(0), Decimal(100)))
    engine.apply(StartBetting.now())
    assert engine.actors() == {1: "p01", 2: "p02"}
    engine.apply(Check("p02"))  # table 2 first: the order between tables is free
    engine.apply(Check("p01"))
    assert engine.actors() == {1: "p03", 2: "p04"}
    with pytest.raises(IllegalAction):
        engine.apply(Check("p06"))  # table 2 waits for p04


def test_betting_cannot_start_while_a_table_has_no_range() -> None:
    engine = started(9)
    engine.apply(EnterRange("p01", Decimal(0), Decimal(1)))
    before = engine.snapshot()
    with pytest.raises(NoRanges, match="table 2"):
        engine.apply(StartBetting.now())
    assert engine.snapshot() == before


def test_a_hand_over_at_one_table_waits_for_the_others_and_refuses_its_players() -> None:
    engine = started(9)
    for player in names(9):
        engine.apply(EnterRange(player, Decimal(0), Decimal(100)))
    engine.apply(StartBetting.now())
    engine.apply(Bet("p01", 10))
    for player in ("p03", "p05", "p07", "p09"):
        engine.apply(Fold(player))
    assert engine.phase == "betting" and engine.current is not None and engine.current.hands[1].settled
    before = engine.snapshot()
    with pytest.raises(TableHandOver):
        engine.apply(Check("p01"))
    assert engine.snapshot() == before
    with pytest.raises(IllegalAction):
        engine.apply(card())  # the question is not over until table 2's hand is
    with pytest.raises(IllegalAction):
        engine.apply(Reveal("p03"))  # ranges are shown once the question is over at every table


# -- random room games ------------------------------------------------------------------------------------


ROOMS = st.tuples(
    st.integers(9, 40),
    st.sampled_from([10, 30, 100]),
    st.lists(st.integers(0, 2**16), min_size=1, max_size=400),
)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def in_play(engine: RoomPokerEngine) -> int:
    """Chips in the hands still being played (antes and bets not yet paid out)."""
    question = engine.current
    if question is None:
        return 0
    return sum(sum(hand.put_in.values()) for hand in question.hands.values() if not hand.settled)


def check_seating(engine: RoomPokerEngine) -> None:
    stacks = engine.stacks
    seen: dict[str, int] = {}
    for number, table in enumerate(engine.tables, 1):
        for player in table.players:
            assert player not in seen, f"{player} at tables {seen[player]} and {number}"
            seen[player] = number
    for player, chips in stacks.items():
        assert chips >= 0
        if chips > 0:
            assert player in seen  # every player with chips sits at exactly one table
    if engine.final:
        assert len(engine.tables) == 1


def random_question(engine: RoomPokerEngine, tape: Tape, number: int) -> None:
    holders = engine.holders()
    was_final = engine.final
    tables_before = [list(t.players) for t in engine.tables]
    engine.apply(card(ante=tape.choice([5, 10, 20]), answer=tape.between(0, 100)))
    question = engine.current
    assert question is not None and question.number == number
    # rules.md Estimation poker 14: the final table forms exactly at the start of the first question with at
    # most 8 players holding chips, and seats them in room seat order, its first seat first.
    assert engine.final == (was_final or len(holders) <= 8)
    if engine.final and not was_final:
        assert [list(t) for t in question.tables] == [holders]
        assert question.hands[1].first == holders[0]
    if not engine.final:
        dealt = [list(t) for t in deal_tables(engine.players)]
        assert [list(t.players) for t in engine.tables] == tables_before == dealt
        assert list(question.tables) == [tuple(p for p in t if p in holders) for t in tables_before]
        for n, seated in enumerate(question.tables, 1):
            assert (n in question.hands) == (len(seated) > 1)  # a single player waits (rules.md Estimation poker 13)
    # ranges: most players enter one, at least one per playing table
    for hand in question.hands.values():
        for index, player in enumerate(hand.dealt):
            if index == 0 or tape.pick(6):
                low = tape.between(0, 100)
                engine.apply(EnterRange(player, Decimal(low), Decimal(low + tape.between(0, 60))))
    engine.apply(StartBetting.now())
    steps = 0
    while engine.phase == "betting":
        steps += 1
        assert steps < 2000
        actors = engine.actors()
        table = tape.choice(sorted(actors))
        player = actors[table]
        if tape.pick(9) == 0 and steps % 2:
            try_refused(engine, tape)
            continue  # it may have been accepted: whose turn it is may have changed
        offers = engine.legal_inputs(player)
        staying = [o for o in offers if o.kind != "fold"]
        offer = tape.choice(offers if tape.pick(4) == 0 or not staying else staying)
        action: Action
        if offer.kind in ("bet", "raise"):
            to = tape.choice([offer.min_to, offer.max_to])
            action = (Bet if offer.kind == "bet" else Raise)(player, to)
        else:
            action = {"check": Check, "call": Call, "fold": Fold, "allin": AllIn}[offer.kind](player)
        engine.apply(action)
        total = len(engine.players) * engine.options["stack"]
        assert sum(engine.stacks.values()) + in_play(engine) == total  # chips conserved across the tables


def try_refused(engine: RoomPokerEngine, tape: Tape) -> None:
    """A random input from a random player (or the host's while a question is played, when it is refused): if
    the engine refuses it, nothing changed; ``can`` says the same as ``apply``."""
    player = tape.choice(engine.players)
    host: list[Action] = [card(), EndGame(HOST)] if engine.phase in ("ranges", "betting") else []
    action: Action = tape.choice([Check(player), Call(player), Fold(player), Bet(player, 1), AllIn(player),
                                  EnterRange(player, Decimal(0), Decimal(1)), Reveal(player), *host])
    before = engine.snapshot()
    expected = engine.can(action)
    try:
        engine.apply(action)
    except IllegalAction:
        assert not expected
        assert engine.snapshot() == before
        return
    assert expected


@SETTINGS
@given(ROOMS)
def test_random_room_games_keep_the_rules_and_the_log_rebuilds_them(game: tuple[int, int, list[int]]) -> None:
    count, stack, values = game
    tape = Tape(values)
    engine = RoomPokerEngine(names(count), {"stack": stack})
    total = count * stack
    seats_at_start = {p: engine.table_number(p) for p in engine.players}
    number = 0
    while not engine.finished and number < 12:
        number += 1
        random_question(engine, tape, number)
        assert engine.phase in ("showdown", "over")
        assert sum(engine.stacks.values()) == total
        check_seating(engine)
        if not engine.final:  # a player keeps their table until the final table forms
            assert all(engine.table_number(p) == seats_at_start[p] for p in engine.holders())
        if tape.pick(4) == 0:
            try_refused(engine, tape)
    if not engine.finished:
        engine.apply(EndGame(HOST))
    if engine.ending is not None and engine.ending.value == "stopped":  # rules.md Estimation poker 15
        most = max(engine.stacks.values())
        assert engine.winners() == [p for p in engine.players if engine.stacks[p] == most]
    else:
        assert [p for p in engine.players if engine.stacks[p] > 0] == engine.winners()  # one player has it all
        assert engine.stacks[engine.winners()[0]] == total
    view = engine.public_view()
    assert view["seat_numbers"] == {p: n for n, p in enumerate(engine.players, 1)}
    assert set(view["table_of"]) == set(engine.players)
    # the log rebuilds the state exactly, also through its JSON form
    rebuilt = RoomPokerEngine.rebuild(engine.players, engine.options, engine.log)
    assert rebuilt.snapshot() == engine.snapshot()
    stored = json.loads(json.dumps([a.to_json() for a in engine.log]))
    again = RoomPokerEngine(engine.players, engine.options)
    for data in stored:
        again.apply(again.action_from_json(data))
    assert again.snapshot() == engine.snapshot()


def test_a_waiting_player_is_refused_and_joins_the_final_table() -> None:
    """17 players, 3 tables; table 3 (p03 p06 p09 p12 p15) loses all but p03 on question 1."""
    engine = RoomPokerEngine(names(17), {"stack": 20})
    engine.apply(card(answer=50))
    question = engine.current
    assert question is not None
    for hand in question.hands.values():
        for player in hand.dealt:
            low, high = (50, 50) if player == "p03" else (0, 1)
            engine.apply(EnterRange(player, Decimal(low), Decimal(high)))
    engine.apply(StartBetting.now())
    for player in ("p03", "p06", "p09", "p12", "p15"):
        engine.apply(AllIn(player))
    for table in (1, 2):
        first = engine.actors()[table]
        engine.apply(AllIn(first))
        while table in engine.actors():
            engine.apply(Fold(engine.actors()[table]))
    assert engine.phase == "showdown" and engine.stacks["p03"] == 100
    engine.apply(card())
    question = engine.current
    assert question is not None and question.tables[2] == ("p03",) and 3 not in question.hands
    before = engine.snapshot()
    with pytest.raises(WaitingAlone):
        engine.apply(EnterRange("p03", Decimal(0), Decimal(1)))
    with pytest.raises(NotInQuestion):
        engine.apply(EnterRange("p06", Decimal(0), Decimal(1)))
    assert engine.snapshot() == before
    private = engine.private_view("p03")
    assert private["waiting"] and private["table"] == 3 and private["seat"] == 3 and private["stack"] == 100
    assert engine.public_view()["table_of"]["p06"] is None
