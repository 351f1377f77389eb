"""The estimation poker engine, rule by rule (seed 002; rules.md "Estimation poker" 1-12).

Unequal stacks are set before the first question, as earlier questions could have left them; the
property tests (test_poker_properties.py) reach them by play instead.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import pytest

from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.games.base import HOST, Action, NotYourTurn, UnknownPlayer, WrongPhase
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
from appliance.games.poker.refusals import (
    AlreadyBet,
    BadAmount,
    BelowMinimum,
    CheckFacingBet,
    NobodyToAnswer,
    NoRanges,
    NotEnoughChips,
    NothingToCall,
    NothingToRaise,
    NothingToReveal,
    NotInQuestion,
    NotReopened,
    RangesLocked,
    ReversedRange,
)

P3 = ("ann", "bob", "cat")
P4 = ("ann", "bob", "cat", "dan")
HINTS = ("More than 150.", "Fewer than 250.")


# -- helpers (also used by the property and pokerkit tests) ------------------------------------------


def new(players: tuple[str, ...] = P3, stacks: Mapping[str, int] | None = None, **options: Any) -> PokerEngine:
    """A game; ``stacks`` overrides some starting stacks (as earlier questions could have left them)."""
    engine = PokerEngine(players, options)
    engine.stacks.update(stacks or {})
    return engine


def start(
    engine: PokerEngine,
    ranges: Mapping[str, tuple[str, str]],
    answer: str = "206",
    ante: int | None = None,
    betting: bool = True,
) -> None:
    """Start a question, enter ``ranges`` and (by default) start betting round 1."""
    engine.apply(StartQuestion.deal("How many bones?", Decimal(answer), HINTS, ante or engine.options["ante"]))
    for player, (low, high) in ranges.items():
        engine.apply(EnterRange(player, Decimal(low), Decimal(high)))
    if betting:
        engine.apply(StartBetting.now())


def action(move: str) -> Action:
    """``"ann bet 30"``, ``"bob raise 60"``, ``"cat call"``, ``"ann allin"``, ``"bob fold"``..."""
    player, kind, *amount = move.split()
    if kind == "bet":
        return Bet(player, int(amount[0]))
    if kind == "raise":
        return Raise(player, int(amount[0]))
    simple: dict[str, type[Action]] = {"check": Check, "call": Call, "fold": Fold, "allin": AllIn, "reveal": Reveal}
    return simple[kind](player)


def act(engine: PokerEngine, *moves: str) -> None:
    for move in moves:
        engine.apply(action(move))


def refused(engine: PokerEngine, move: Action | str, error: type[IllegalAction], match: str) -> None:
    """``move`` is refused with ``error`` whose message matches, and nothing changes."""
    before = engine.snapshot()
    with pytest.raises(error, match=match):
        engine.apply(action(move) if isinstance(move, str) else move)
    assert engine.snapshot() == before


def offers(engine: PokerEngine, player: str) -> dict[str, tuple[int, int]]:
    return {o.kind: (o.min_to, o.max_to) for o in engine.legal_inputs(player)}


def three_way(answer: str = "206") -> dict[str, tuple[str, str]]:
    return {"ann": ("200", "210"), "bob": ("150", "250"), "cat": ("300", "400")}


# -- options -------------------------------------------------------------------------------------------


def test_defaults_stack_1000_ante_10_first_seat_first_ante_doubling_every_20_minutes() -> None:
    engine = PokerEngine(P3)
    assert engine.options == {"stack": 1000, "ante": 10, "first": "ann", "ante_every": {"minutes": 20}}
    assert engine.stacks == {"ann": 1000, "bob": 1000, "cat": 1000}
    assert engine.schedule.describe() == "10, doubling every 20 minutes"
    assert engine.phase == "waiting" and engine.next_first() == "ann"


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"stack": 0}, "stack must be a whole number"),
        ({"stack": 100.0}, "stack must be a whole number"),
        ({"ante": True}, "ante must be a whole number"),
        ({"ante": -5}, "ante must be a whole number"),
        ({"first": "zed"}, "first must be one of ann, bob, cat"),
        ({"ante_every": {"hours": 1}}, "minutes or questions"),
        ({"ante_every": {"questions": 0}}, "at least 1"),
        ({"ante_every": 20}, "ante_every must be"),
        ({"blinds": 5}, "unknown poker option"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        PokerEngine(P3, options)


@pytest.mark.parametrize("players", [("ann",), tuple(f"p{i}" for i in range(9))])
def test_two_to_eight_players(players: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError, match="2 to 8 players"):
        PokerEngine(players)


# -- starting a question: antes (rules.md 1, 3) ---------------------------------------------------


def test_everyone_antes_then_the_question_is_shown_and_ranges_open() -> None:
    engine = new(stack=100, ante=10)
    start(engine, {}, betting=False)
    assert engine.phase == "ranges"
    assert engine.stacks == {"ann": 90, "bob": 90, "cat": 90}
    view = engine.public_view()["question"]
    assert view["put_in"] == {"ann": 10, "bob": 10, "cat": 10}
    assert view["question"] == "How many bones?" and view["answer"] is None and view["hints"] == []


def test_the_ante_in_force_comes_with_the_question() -> None:
    engine = new(stack=100, ante=10)
    start(engine, {}, ante=25, betting=False)
    assert engine.stacks == {"ann": 75, "bob": 75, "cat": 75}
    assert engine.public_view()["question"]["ante"] == 25


def test_a_short_stack_is_all_in_for_the_ante_it_can_pay() -> None:
    engine = new(stacks={"cat": 4}, ante=10)
    start(engine, three_way(), betting=False)
    assert engine.stacks["cat"] == 0
    assert engine.current is not None and engine.current.put_in["cat"] == 4
    engine.apply(StartBetting.now())
    assert engine.public_view()["question"]["all_in"] == ["cat"] and engine.public_view()["out"] == []
    refused(engine, "cat check", NotYourTurn, "cat is all-in")


def test_only_the_host_starts_a_question_and_only_between_questions() -> None:
    engine = new()
    refused(engine, StartQuestion("ann", "Q?", Decimal(1), HINTS, 10), NotYourTurn, "only the host")
    refused(engine, StartQuestion.deal("Q?", Decimal(1), HINTS, 0), BadAmount, "ante 0 refused")
    start(engine, three_way())
    refused(engine, StartQuestion.deal("Q?", Decimal(1), HINTS, 10), WrongPhase, "betting round 1: ann to act")


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"question": "", "answer": Decimal(1), "hints": HINTS, "ante": 10}, MalformedInput),
        ({"question": "Q", "answer": Decimal("NaN"), "hints": HINTS, "ante": 10}, MalformedInput),
        ({"question": "Q", "answer": Decimal("1E+200"), "hints": HINTS, "ante": 10}, MalformedInput),
        ({"question": "Q", "answer": Decimal(1), "hints": ("one",), "ante": 10}, MalformedInput),
        ({"question": "Q", "answer": Decimal(1), "hints": ("one", ""), "ante": 10}, MalformedInput),
        ({"question": "Q", "answer": Decimal(1), "hints": HINTS, "ante": 2.5}, MalformedInput),
    ],
)
def test_a_card_that_cannot_be_read_is_malformed(fields: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        StartQuestion(HOST, **fields)


# -- ranges (rules.md 4) -----------------------------------------------------------------------------


def test_ranges_can_change_until_betting_starts_then_lock() -> None:
    engine = new()
    start(engine, {"ann": ("1", "2"), "bob": ("150", "250")}, betting=False)
    engine.apply(EnterRange("ann", Decimal("200"), Decimal("210")))
    assert engine.private_view("ann")["range"] == ["200", "210"]
    engine.apply(StartBetting.now())
    refused(engine, EnterRange("ann", Decimal("1"), Decimal("2")), RangesLocked, "ranges locked when betting")


def test_a_player_without_a_range_when_betting_starts_is_folded() -> None:
    engine = new()
    start(engine, {"ann": ("200", "210"), "cat": ("300", "400")})
    assert engine.public_view()["question"]["folded"] == ["bob"]
    assert engine.to_act == "ann"
    refused(engine, "bob check", NotInQuestion, "bob has folded")


def test_betting_needs_at_least_one_range() -> None:
    engine = new()
    start(engine, {}, betting=False)
    refused(engine, StartBetting.now(), NoRanges, "nobody has entered a range")
    refused(engine, StartBetting("ann"), NotYourTurn, "only the host")


def test_a_reversed_range_is_refused() -> None:
    engine = new()
    start(engine, {}, betting=False)
    refused(engine, EnterRange("ann", Decimal("5"), Decimal("4.99")), ReversedRange, "low end 5 is above")
    refused(engine, EnterRange("zed", Decimal("1"), Decimal("2")), UnknownPlayer, "'zed' is not playing")


def test_ranges_before_a_question_are_refused() -> None:
    refused(new(), EnterRange("ann", Decimal("1"), Decimal("2")), WrongPhase, "waiting for the host")


def test_a_range_end_that_is_not_a_finite_number_is_malformed() -> None:
    with pytest.raises(MalformedInput):
        EnterRange("ann", Decimal("Infinity"), Decimal("2"))


def test_ranges_stay_secret_until_the_showdown() -> None:
    engine = new(stack=100)
    start(engine, {"ann": ("1111", "2222"), "bob": ("3333", "4444"), "cat": ("5555", "6666")}, answer="7777")
    for move in ("ann check", "bob check", "cat check") * 3 + ("ann check", "bob check"):
        text = json.dumps(engine.public_view())
        assert not any(n in text for n in ("1111", "2222", "3333", "4444", "5555", "6666"))
        assert engine.private_view("bob")["range"] == ["3333", "4444"]
        assert "1111" not in json.dumps(engine.private_view("bob"))
        act(engine, move)
    act(engine, "cat check")
    assert engine.public_view()["question"]["ranges"] == {
        "ann": ["1111", "2222"],
        "bob": ["3333", "4444"],
        "cat": ["5555", "6666"],
    }


# -- the first actor (rules.md 2) --------------------------------------------------------------------


def play_checks_to_showdown(engine: PokerEngine) -> None:
    while engine.phase == "betting":
        player = engine.to_act
        assert player is not None
        act(engine, f"{player} check")


def test_the_first_actor_rotates_one_seat_clockwise_each_question() -> None:
    engine = new(P4, first="cat")
    firsts = []
    for _ in range(5):
        start(engine, {p: ("0", "1000") for p in P4})
        firsts.append(engine.to_act)
        play_checks_to_showdown(engine)
    assert firsts == ["cat", "dan", "ann", "bob", "cat"]


def test_the_rotation_skips_players_who_are_out() -> None:
    engine = new(P4, stacks={"bob": 10}, ante=10, first="ann")
    start(engine, {"ann": ("200", "210"), "cat": ("0", "1")})  # bob all-in from the ante and folded
    play_checks_to_showdown(engine)
    assert engine.stacks["bob"] == 0
    assert engine.next_first() == "cat"
    start(engine, {"ann": ("200", "210"), "cat": ("0", "1"), "dan": ("0", "1")})
    assert engine.current is not None and engine.current.dealt == ("ann", "cat", "dan")
    assert engine.public_view()["out"] == ["bob"]
    assert engine.to_act == "cat"
    refused(engine, EnterRange("bob", Decimal(1), Decimal(2)), RangesLocked, "ranges locked")


def test_the_first_actor_opens_every_round_or_the_next_active_player_clockwise() -> None:
    engine = new(P4, stacks={"dan": 500}, first="bob")
    start(engine, {p: ("0", "1000") for p in P4})
    act(engine, "bob check", "cat check", "dan check", "ann check")
    assert engine.to_act == "bob"  # round 2
    act(engine, "bob fold", "cat bet 20", "dan call", "ann call")
    assert engine.to_act == "cat"  # round 3: bob folded, the next active player clockwise opens
    act(engine, "cat check", "dan allin", "ann call", "cat call")
    assert engine.current is not None and engine.current.round is not None
    assert engine.current.round.number == 4 and engine.to_act == "cat"  # dan is all-in, ann and cat bet on


def test_an_all_in_first_actor_is_skipped() -> None:
    engine = new(stacks={"ann": 5}, ante=10)
    start(engine, three_way())
    assert engine.to_act == "bob"


# -- betting (rules.md 5) ----------------------------------------------------------------------------


def test_check_passes_and_a_round_of_checks_shows_the_next_hint() -> None:
    engine = new()
    start(engine, three_way())
    act(engine, "ann check", "bob check")
    assert engine.public_view()["question"]["hints"] == []
    act(engine, "cat check")
    view = engine.public_view()["question"]
    assert view["round"] == 2 and view["hints"] == [HINTS[0]] and view["answer"] is None
    act(engine, "ann check", "bob check", "cat check")
    view = engine.public_view()["question"]
    assert view["round"] == 3 and view["hints"] == list(HINTS) and view["answer"] is None
    act(engine, "ann check", "bob check", "cat check")
    view = engine.public_view()["question"]
    assert view["round"] == 4 and view["answer"] == "206"


def test_the_minimum_bet_is_the_questions_ante() -> None:
    engine = new()
    start(engine, three_way(), ante=20)
    assert offers(engine, "ann")["bet"] == (20, 980)
    refused(engine, "ann bet 19", BelowMinimum, "bet to 19 refused: the minimum is 20")
    act(engine, "ann bet 20")
    assert engine.stacks["ann"] == 960


def test_a_raise_goes_to_at_least_the_highest_bet_plus_the_last_full_bet_or_raise() -> None:
    engine = new()
    start(engine, three_way())
    act(engine, "ann bet 50")
    assert offers(engine, "bob")["raise"] == (100, 990)
    refused(engine, "bob raise 99", BelowMinimum, "minimum is 100")
    act(engine, "bob raise 180")  # a raise of 130
    assert offers(engine, "cat")["raise"] == (310, 990)
    refused(engine, "cat raise 309", BelowMinimum, "minimum is 310")


def test_the_increment_is_never_below_the_ante_and_resets_each_round() -> None:
    engine = new()
    start(engine, three_way(), ante=10)
    act(engine, "ann bet 200", "bob call", "cat call")
    assert offers(engine, "ann")["bet"] == (10, 790)  # round 2: back to the ante
    act(engine, "ann bet 10")
    assert offers(engine, "bob")["raise"] == (20, 790)


def test_call_matches_the_highest_bet() -> None:
    engine = new()
    start(engine, three_way())
    act(engine, "ann bet 40", "bob call")
    assert engine.stacks["bob"] == 950 and offers(engine, "cat")["call"] == (40, 40)


def test_fold_is_allowed_when_a_check_was_possible() -> None:
    engine = new()
    start(engine, three_way())
    assert "fold" in offers(engine, "ann") and "check" in offers(engine, "ann")
    act(engine, "ann fold")
    assert engine.public_view()["question"]["folded"] == ["ann"]


def test_an_all_in_may_be_below_the_minimum() -> None:
    engine = new(stacks={"ann": 15})
    start(engine, three_way())
    assert offers(engine, "ann") == {"fold": (0, 0), "check": (0, 0), "allin": (5, 5)}
    act(engine, "ann allin")
    assert offers(engine, "bob")["raise"] == (15, 990)  # 5 + the ante: a short bet does not set the increment


@pytest.mark.parametrize(
    ("moves", "move", "error", "match"),
    [
        ([], "bob check", NotYourTurn, "check from bob refused: .*ann to act"),
        (["ann bet 20"], "bob check", CheckFacingBet, "bob cannot check facing a bet .*highest bet is 20"),
        ([], "ann call", NothingToCall, "ann has nothing to call"),
        (["ann bet 20"], "bob bet 40", AlreadyBet, "there is already a bet"),
        ([], "ann raise 40", NothingToRaise, "bet instead"),
        ([], "ann bet 991", NotEnoughChips, "ann can reach at most 990"),
        (["ann bet 20"], "bob raise 1000", NotEnoughChips, "bob can reach at most 990"),
        ([], "ann bet -10", BadAmount, "cannot be negative"),
        ([], Bet("ann", 12.5), BadAmount, "whole numbers of chips"),  # type: ignore[arg-type]
        ([], Bet("ann", True), BadAmount, "whole numbers of chips"),
        ([], "zed check", UnknownPlayer, "'zed' is not playing"),
    ],
)
def test_refused_betting_actions_change_nothing(
    moves: list[str], move: str | Action, error: type[IllegalAction], match: str
) -> None:
    engine = new()
    start(engine, three_way())
    act(engine, *moves)
    refused(engine, move, error, match)


def test_a_call_the_stack_cannot_cover_is_a_call_for_all_of_it_like_all_in() -> None:
    """rules.md Estimation poker 5: a short call is the same as all-in, not a refusal."""
    called, all_in = new(stacks={"bob": 50}), new(stacks={"bob": 50})
    for engine in (called, all_in):
        start(engine, three_way())
        act(engine, "ann bet 100")
        assert offers(engine, "bob") == {"fold": (0, 0), "call": (40, 40), "allin": (40, 40)}
    act(called, "bob call")
    act(all_in, "bob allin")
    assert called.stacks["bob"] == 0 and called.to_act == "cat"
    assert called.public_view() == all_in.public_view()
    assert called.stacks == all_in.stacks


# -- re-opening (rules.md 6) -------------------------------------------------------------------------


def test_a_short_all_in_raise_does_not_reopen_the_betting() -> None:
    engine = new(stacks={"bob": 160})
    start(engine, three_way())
    act(engine, "ann bet 100", "bob allin")  # to 150: a raise of 50, short of the 100 increment
    assert offers(engine, "cat")["raise"] == (250, 990)  # cat has not acted: may raise
    act(engine, "cat call")
    assert offers(engine, "ann") == {"fold": (100, 100), "call": (150, 150)}
    refused(engine, "ann raise 250", NotReopened, "risen by 50 since, less than a full raise of 100")
    refused(engine, "ann allin", NotReopened, "ann cannot allin")
    act(engine, "ann call")
    assert engine.current is not None and engine.current.round is not None and engine.current.round.number == 2


def test_short_all_ins_add_up_to_a_full_raise_and_reopen() -> None:
    engine = new(P4, stacks={"bob": 160, "cat": 210})
    start(engine, {p: ("0", "1000") for p in P4})
    act(engine, "ann bet 100", "bob allin", "cat allin", "dan call")  # 150 then 200: +50 +50
    assert offers(engine, "ann")["raise"] == (300, 990)
    act(engine, "ann raise 300")
    assert offers(engine, "dan")["raise"] == (400, 990)


def test_a_player_who_checked_faces_a_short_all_in_bet_without_reopening() -> None:
    engine = new(stacks={"bob": 15})
    start(engine, three_way())
    act(engine, "ann check", "bob allin")  # a bet of 5, below the ante of 10
    assert offers(engine, "cat")["raise"] == (15, 990)
    act(engine, "cat call")
    assert offers(engine, "ann") == {"fold": (0, 0), "call": (5, 5)}
    refused(engine, "ann raise 15", NotReopened, "risen by 5 since, less than a full raise of 10")


def test_a_full_raise_reopens_the_betting_for_players_who_acted() -> None:
    engine = new()
    start(engine, three_way())
    act(engine, "ann bet 20", "bob call", "cat raise 40")
    assert offers(engine, "ann")["raise"] == (60, 990)
    assert offers(engine, "ann")["allin"] == (990, 990)


def test_a_raise_nobody_can_answer_is_refused_but_an_allin_is_taken_and_its_excess_goes_back() -> None:
    engine = new(stacks={"bob": 300, "cat": 300})
    start(engine, three_way())
    act(engine, "ann bet 50", "bob allin", "cat allin")  # both all-in for 290
    assert offers(engine, "ann") == {"fold": (50, 50), "call": (290, 290), "allin": (990, 990)}
    refused(engine, "ann raise 600", NobodyToAnswer, "nobody left could call it")
    # rules.md 5: all-in is any amount; rules.md 9: the part nobody could call goes back (a rules audit
    # found the all-in refused); the chips end as after a call
    act(engine, "ann allin")
    question = engine.current
    assert question is not None and question.outcome is not None
    assert question.outcome.returned == {"ann": 700}
    assert sum(engine.stacks.values()) == 1000 + 300 + 300


def test_a_short_allin_facing_a_short_allin_heads_up_returns_the_uncalled_part() -> None:
    engine = new(("ann", "bob"), stacks={"ann": 60})
    start(engine, {"ann": ("100", "300"), "bob": ("150", "250")})
    act(engine, "ann allin", "bob allin")  # ann 50 behind after the ante; bob's 990 can be called for 50 only
    question = engine.current
    assert question is not None and question.outcome is not None
    assert question.outcome.returned == {"bob": 940}
    assert sum(engine.stacks.values()) == 60 + 1000


# -- round end, run-out and fold-to-one (rules.md 7, 8) -------------------------------------------


def test_a_round_ends_when_everyone_has_acted_and_matched() -> None:
    engine = new()
    start(engine, three_way())
    act(engine, "ann bet 20", "bob raise 40", "cat call")
    assert engine.to_act == "ann"
    act(engine, "ann call")
    assert engine.current is not None and engine.current.round is not None
    assert engine.current.round.number == 2 and engine.to_act == "ann"


def test_when_nobody_can_bet_any_more_the_question_runs_out_to_the_showdown() -> None:
    engine = new(stack=100)
    start(engine, three_way())
    act(engine, "ann allin", "bob call", "cat call")
    assert engine.phase == "over"
    view = engine.public_view()["question"]
    assert view["hints"] == list(HINTS) and view["answer"] == "206"
    assert engine.stacks == {"ann": 300, "bob": 0, "cat": 0} and engine.winners() == ["ann"]


def test_one_player_left_able_to_act_and_not_facing_a_bet_runs_out() -> None:
    engine = new(stacks={"ann": 5})  # ann all-in from the ante
    start(engine, three_way())
    act(engine, "bob fold")  # cat is the only one who can still act and faces no bet
    assert engine.phase == "showdown"
    assert engine.current is not None and engine.current.outcome is not None
    assert [(r.pot.amount, r.pot.eligible, r.winners) for r in engine.current.outcome.pots] == [
        (15, ("ann", "cat"), ("ann",)),
        (10, ("cat",), ("cat",)),
    ]
    assert engine.stacks == {"ann": 15, "bob": 990, "cat": 1000}


def test_all_in_players_from_the_ante_leave_one_active_player_and_the_question_runs_out() -> None:
    engine = new(stacks={"ann": 5, "bob": 8})
    start(engine, three_way())
    assert engine.phase == "showdown" and engine.to_act is None
    assert engine.public_view()["question"]["answer"] == "206"


def test_everyone_else_folded_the_last_player_wins_without_showing_their_range() -> None:
    engine = new()
    start(engine, three_way())
    act(engine, "ann bet 100", "bob fold", "cat fold")
    assert engine.phase == "showdown"
    assert engine.stacks == {"ann": 1020, "bob": 990, "cat": 990}
    assert engine.public_view()["question"]["ranges"] == {}
    outcome = engine.current.outcome if engine.current else None
    assert outcome is not None and outcome.returned == {"ann": 100} and not outcome.showdown


def test_fold_to_one_still_shows_down_the_pots_an_all_in_player_is_in() -> None:
    engine = new(stacks={"cat": 60})
    start(engine, {"ann": ("0", "1000"), "bob": ("150", "250"), "cat": ("200", "210")})
    act(engine, "ann bet 100", "bob call", "cat allin")  # cat all-in for 50
    act(engine, "ann bet 200", "bob fold")  # ann's 200 is uncalled; main pot: ann vs cat
    assert engine.phase == "showdown"
    outcome = engine.current.outcome if engine.current else None
    assert outcome is not None and outcome.showdown and outcome.returned == {"ann": 200}
    assert [(r.pot.amount, r.pot.eligible, r.winners) for r in outcome.pots] == [
        (180, ("ann", "cat"), ("cat",)),
        (100, ("ann",), ("ann",)),
    ]
    assert engine.stacks == {"ann": 890 + 100, "bob": 890, "cat": 180}
    assert set(engine.public_view()["question"]["ranges"]) == {"ann", "cat"}


# -- showdown (rules.md 9, 10) -----------------------------------------------------------------------


def showdown(ranges: dict[str, tuple[str, str]], answer: str, players: tuple[str, ...] = P3, **kw: Any) -> PokerEngine:
    engine = new(players, stack=100, **kw)
    start(engine, ranges, answer=answer)
    play_checks_to_showdown(engine)
    return engine


def test_containing_beats_narrower_and_the_narrowest_containing_range_wins() -> None:
    engine = showdown({"ann": ("200", "600"), "bob": ("400", "1100"), "cat": ("499", "499")}, answer="500")
    assert engine.stacks == {"ann": 120, "bob": 90, "cat": 90}


def test_when_no_range_contains_the_answer_the_closest_midpoint_wins() -> None:
    engine = showdown({"ann": ("80", "100"), "bob": ("101", "110"), "cat": ("0", "50")}, answer="100.5")
    assert engine.stacks == {"ann": 90, "bob": 120, "cat": 90}


def test_equal_best_ranges_split_and_the_odd_chip_goes_to_the_first_actor() -> None:
    engine = showdown({"ann": ("0", "10"), "bob": ("5", "15"), "cat": ("100", "200")}, answer="7", first="bob")
    assert engine.stacks == {"ann": 105, "bob": 105, "cat": 90}  # 30 split 15/15, no odd chip
    engine = showdown({"ann": ("0", "10"), "bob": ("5", "15"), "cat": ("100", "200")}, answer="7", ante=11, first="bob")
    assert engine.stacks == {"ann": 105, "bob": 106, "cat": 89}  # 33 split 16/17: bob is first


def test_the_odd_chip_goes_to_the_winner_nearest_clockwise_from_the_first_actor() -> None:
    ranges = {"ann": ("0", "10"), "bob": ("100", "200"), "cat": ("5", "15")}
    assert showdown(ranges, answer="7", ante=11, first="bob").stacks == {"ann": 105, "bob": 89, "cat": 106}
    assert showdown(ranges, answer="7", ante=11, first="cat").stacks == {"ann": 105, "bob": 89, "cat": 106}
    assert showdown(ranges, answer="7", ante=11, first="ann").stacks == {"ann": 106, "bob": 89, "cat": 105}


def test_side_pots_are_won_separately_among_the_players_eligible_for_them() -> None:
    engine = new(P4, stacks={"ann": 50, "bob": 150, "cat": 1000, "dan": 1000})
    start(
        engine,
        {"ann": ("206", "206"), "bob": ("200", "210"), "cat": ("150", "250"), "dan": ("0", "10")},
    )
    act(engine, "ann allin", "bob allin", "cat call", "dan call")
    play_checks_to_showdown(engine)  # cat and dan can still bet: rounds 2-4 are played
    outcome = engine.current.outcome if engine.current else None
    assert outcome is not None
    assert [(r.pot.amount, r.pot.eligible, r.winners) for r in outcome.pots] == [
        (200, P4, ("ann",)),
        (300, ("bob", "cat", "dan"), ("bob",)),
    ]
    assert engine.stacks == {"ann": 200, "bob": 300, "cat": 850, "dan": 850}


def test_each_pot_is_split_on_its_own_with_its_own_odd_chip() -> None:
    engine = new(P4, stacks={"ann": 27, "bob": 1000, "cat": 1000, "dan": 1000}, first="cat")
    start(engine, {"ann": ("0", "10"), "bob": ("0", "10"), "cat": ("0", "10"), "dan": ("100", "200")}, answer="5")
    act(engine, "cat bet 17", "dan call", "ann allin", "bob call")
    # main pot 27 x 4 = 108 split three ways (36 each); nothing left above ann's 27
    play_checks_to_showdown(engine)
    assert engine.stacks == {"ann": 36, "bob": 1009, "cat": 1009, "dan": 973}


# -- the end of a question and of the game (rules.md 11, 12) ---------------------------------------


def test_players_with_no_chips_are_out_and_the_last_player_with_chips_wins() -> None:
    engine = new(stacks={"cat": 30})
    start(engine, {"ann": ("200", "210"), "bob": ("0", "1"), "cat": ("0", "1")})
    act(engine, "ann bet 20", "bob fold", "cat allin")  # cat's 20 calls: ann alone can act, run-out
    assert engine.stacks["cat"] == 0 and not engine.finished
    assert engine.public_view()["out"] == ["cat"]
    start(engine, {"ann": ("200", "210"), "bob": ("0", "1")})
    act(engine, "bob allin", "ann call")
    assert engine.finished and engine.winners() == ["ann"] and engine.stacks["ann"] == 2030
    refused(engine, StartQuestion.deal("Q?", Decimal(1), HINTS, 10), WrongPhase, "the game is over")
    refused(engine, EndGame.now(), WrongPhase, "the game is over")


def test_the_host_stops_the_game_and_the_most_chips_win() -> None:
    engine = new()
    start(engine, three_way())
    refused(engine, EndGame.now(), WrongPhase, "end from the host refused")
    act(engine, "ann bet 10", "bob fold", "cat fold")
    refused(engine, EndGame("ann"), NotYourTurn, "only the host")
    engine.apply(EndGame.now())
    assert engine.finished and engine.winners() == ["ann"] and engine.public_view()["ending"] == "stopped"


def test_a_stopped_game_with_equal_top_stacks_is_shared() -> None:
    engine = new()
    engine.apply(EndGame.now())
    assert engine.winners() == ["ann", "bob", "cat"]


def test_folded_players_may_show_their_range_after_the_showdown() -> None:
    engine = new()
    start(engine, three_way())
    refused(engine, "bob reveal", WrongPhase, "ranges are shown after the showdown")
    act(engine, "ann bet 10", "bob fold", "cat call")
    play_checks_to_showdown(engine)
    assert set(engine.public_view()["question"]["ranges"]) == {"ann", "cat"}
    assert engine.private_view("bob")["may_reveal"]
    act(engine, "bob reveal")
    assert engine.public_view()["question"]["ranges"]["bob"] == ["150", "250"]
    assert engine.stacks == {"ann": 1030, "bob": 990, "cat": 980}  # no effect on chips
    refused(engine, "bob reveal", NothingToReveal, "already shown")
    refused(engine, "cat reveal", NothingToReveal, "already shown")


def test_the_fold_to_one_winner_may_show_and_a_player_without_a_range_has_nothing_to_show() -> None:
    engine = new()
    start(engine, {"ann": ("200", "210"), "bob": ("150", "250")})
    act(engine, "ann bet 10", "bob fold")
    refused(engine, "cat reveal", NothingToReveal, "cat has no range")
    act(engine, "ann reveal")
    assert engine.public_view()["question"]["ranges"] == {"ann": ["200", "210"]}


# -- views and the legal-action query ----------------------------------------------------------------


def test_the_public_view_shows_bets_pots_turn_and_the_legal_actions_summary() -> None:
    engine = new(stacks={"bob": 60})
    start(engine, three_way())
    act(engine, "ann bet 100", "bob allin")  # bob calls for less: 50
    view = engine.public_view()
    question = view["question"]
    assert question["bets"] == {"ann": 100, "bob": 50, "cat": 0}
    assert question["pots"] == [
        {"amount": 60 + 60 + 10, "eligible": ["ann", "bob", "cat"]},
        {"amount": 50, "eligible": ["ann", "cat"]},
    ]
    assert question["all_in"] == ["bob"] and view["to_act"] == "cat"
    assert view["legal"] == [
        {"kind": "fold", "min_to": 0, "max_to": 0},
        {"kind": "call", "min_to": 100, "max_to": 100},
        {"kind": "raise", "min_to": 200, "max_to": 990},
        {"kind": "allin", "min_to": 990, "max_to": 990},
    ]


def test_the_private_view_holds_own_range_stack_and_legal_actions_only() -> None:
    engine = new()
    start(engine, three_way())
    view = engine.private_view("ann")
    assert view["range"] == ["200", "210"] and view["stack"] == 990 and view["your_turn"]
    assert [o["kind"] for o in view["legal"]] == ["fold", "check", "bet", "allin"]
    other = engine.private_view("bob")
    assert other["legal"] == [] and not other["your_turn"] and other["range"] == ["150", "250"]
    with pytest.raises(UnknownPlayer):
        engine.private_view("zed")


def every_candidate(engine: PokerEngine, player: str) -> list[Action]:
    total = engine.stacks[player] + 1000
    sized = [cls(player, to) for cls in (Bet, Raise) for to in range(-1, total + 2)]
    return [Check(player), Call(player), Fold(player), AllIn(player), *sized]


def offered(engine: PokerEngine, candidate: Action) -> bool:
    for offer in engine.legal_inputs(candidate.player):
        if offer.kind == candidate.kind:
            to = getattr(candidate, "to", offer.min_to)
            return offer.min_to <= to <= offer.max_to
    return False


@pytest.mark.parametrize(
    "moves",
    [
        [],
        ["ann bet 100"],
        ["ann bet 100", "bob allin"],
        ["ann bet 100", "bob allin", "cat call"],
        ["ann check", "bob check", "cat check"],
        ["ann check", "bob allin", "cat call"],
    ],
)
def test_every_offered_action_is_accepted_and_nothing_else_is(moves: list[str]) -> None:
    engine = new(stacks={"bob": 160, "cat": 400})
    start(engine, three_way())
    act(engine, *moves)
    for player in P3:
        for candidate in every_candidate(engine, player):
            assert engine.can(candidate) == offered(engine, candidate), candidate


# -- the log -----------------------------------------------------------------------------------------


def test_every_action_round_trips_through_the_json_log_and_rebuilds_the_same_state() -> None:
    engine = new()
    start(engine, three_way())
    act(engine, "ann bet 100", "bob call", "cat raise 300", "ann fold", "bob call")
    act(engine, "bob bet 50", "cat fold", "ann reveal")
    stored = json.loads(json.dumps([a.to_json() for a in engine.log]))
    log = [engine.action_from_json(data) for data in stored]
    assert log == engine.log
    assert PokerEngine.rebuild(engine.players, engine.options, log).snapshot() == engine.snapshot()
    assert engine.undo().snapshot() != engine.snapshot()


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "shove", "player": "ann"},
        {"kind": "range", "player": "ann", "low": "lots", "high": "2"},
        {"kind": "range", "player": "ann", "low": "1"},
        {"kind": "question", "player": "", "question": "Q", "answer": "1", "hints": ["a"], "ante": 10},
    ],
)
def test_a_broken_log_entry_is_malformed(data: dict[str, Any]) -> None:
    with pytest.raises(MalformedInput):
        new().action_from_json(data)
