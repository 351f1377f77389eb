"""Confident? scoring and winning, rule by rule (seed 000; rules.md "Confident?" 1-8)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from appliance.errors import ConfigError
from appliance.games.base import HOST, WrongPhase
from appliance.games.confident.actions import Close, EndGame
from appliance.games.confident.refusals import BoostNotInVariant, RangeUpsideDown
from tests.games.confident_support import (
    ANN,
    BOB,
    CAT,
    DAN,
    EVE,
    FOUR,
    ask,
    board,
    copy,
    new,
    play,
    refused,
    settle_question,
)

R = Decimal

# -- rule 1: correct, size ----------------------------------------------------------------------------


def test_rule_1_a_range_includes_both_endpoints() -> None:
    result = settle_question(
        new(), "12", board(ANN, "12", "20"), board(BOB, "5", "12"), board(CAT, "12.0001", "13"), board(DAN, "0", "11.9")
    )
    assert result.correct == {ANN: True, BOB: True, CAT: False, DAN: False}


def test_rule_1_size_is_exact_for_fractions_and_negatives() -> None:
    result = settle_question(
        new(), "-40", board(ANN, "-40.1", "-39.8"), board(BOB, "-0.3", "-0.1"), board(CAT, "-1E3", "0")
    )
    assert result.sizes == {ANN: R("0.3"), BOB: R("0.2"), CAT: R("1000"), DAN: None}
    assert result.points[ANN] == 3


def test_rule_1_size_is_exact_beyond_float_precision() -> None:
    bottom, top = "1" + "0" * 40, "1" + "0" * 39 + "1"
    result = settle_question(new(), top, board(ANN, bottom, top), board(BOB, bottom, "1" + "0" * 39 + "2"))
    assert result.sizes[ANN] == R(1)
    assert result.points == {ANN: 3, BOB: 1, CAT: 0, DAN: 0}


def test_rule_1_bottom_above_top_is_refused_with_a_clear_message() -> None:
    engine = play(new(), ask())
    refused(engine, board(ANN, "15", "8"), RangeUpsideDown, "the bottom 15 is above the top 8; write the smaller")


# -- rules 2 and 3: base scoring, everyone correct --------------------------------------------------------


def test_rule_2_the_moon_example() -> None:
    result = settle_question(
        new(), "12", board(ANN, "8", "15"), board(BOB, "5", "30"), board(CAT, "12", "40"), board(DAN, "20", "100")
    )
    assert result.points == {ANN: 3, BOB: 1, CAT: 1, DAN: 0}
    assert result.smallest == {ANN}


def test_rule_2_equal_smallest_sizes_all_score_3() -> None:
    result = settle_question(new(), "12", board(ANN, "10", "15"), board(BOB, "11", "16"), board(CAT, "0", "100"))
    assert result.points == {ANN: 3, BOB: 3, CAT: 1, DAN: 0}


def test_rule_3_everyone_correct_the_biggest_scores_0() -> None:
    result = settle_question(
        new(), "12", board(ANN, "8", "15"), board(BOB, "5", "30"), board(CAT, "12", "40"), board(DAN, "10", "100")
    )
    assert result.points == {ANN: 3, BOB: 1, CAT: 1, DAN: 0}


def test_rule_3_every_range_of_the_biggest_size_scores_0() -> None:
    result = settle_question(
        new(), "12", board(ANN, "8", "15"), board(BOB, "5", "30"), board(CAT, "0", "90"), board(DAN, "10", "100")
    )
    assert result.points == {ANN: 3, BOB: 1, CAT: 0, DAN: 0}


def test_rule_3_all_correct_with_one_equal_size_all_score_3() -> None:
    result = settle_question(new(), "12", *(board(p, "10", "20") for p in FOUR))
    assert result.points == {p: 3 for p in FOUR}


def test_rule_3_two_sizes_everyone_correct_smallest_3_biggest_0() -> None:
    result = settle_question(
        new(), "12", board(ANN, "10", "20"), board(BOB, "10", "20"), board(CAT, "0", "20"), board(DAN, "0", "20")
    )
    assert result.points == {ANN: 3, BOB: 3, CAT: 0, DAN: 0}


# -- rule 4: no range ----------------------------------------------------------------------------------


def test_rule_4_no_range_scores_0_and_makes_everyone_correct_false() -> None:
    result = settle_question(new(), "12", board(ANN, "8", "15"), board(BOB, "5", "30"), board(CAT, "0", "100"))
    assert result.ranges[DAN] is None
    assert result.correct[DAN] is False
    assert result.points == {ANN: 3, BOB: 1, CAT: 1, DAN: 0}  # cat, the biggest, keeps 1


def test_rule_4_no_range_never_loses_a_point_with_minus_points() -> None:
    engine = new(variants=["minus_points"])
    result = settle_question(engine, "12", board(ANN, "8", "15"), board(BOB, "20", "30"))
    assert result.points == {ANN: 3, BOB: -1, CAT: 0, DAN: 0}


# -- rule 5: boosts --------------------------------------------------------------------------------------


def test_rule_5_several_boosts_on_one_question() -> None:
    engine = new()
    result = settle_question(
        engine,
        "12",
        copy(ANN, BOB, swap=(CAT, DAN), double=True),
        board(BOB, "10", "14"),
        board(CAT, "0", "100"),
        board(DAN, "11", "13"),
    )
    assert result.ranges == {ANN: (R(10), R(14)), BOB: (R(10), R(14)), CAT: (R(11), R(13)), DAN: (R(0), R(100))}
    assert result.points == {ANN: 2, BOB: 1, CAT: 3, DAN: 0}
    assert engine.boosts_left(ANN) == []


def test_rule_5_a_boost_is_used_up_even_without_effect() -> None:
    engine = new()
    # ann and bob copy each other (no range either), cat doubles 0 points
    settle_question(engine, "12", copy(ANN, BOB), copy(BOB, ANN), board(CAT, "50", "60", double=True))
    assert engine.boosts_left(ANN) == ["swap", "double"]
    assert engine.boosts_left(CAT) == ["copy", "swap"]


def test_rule_5_boosts_belong_to_players_not_boards() -> None:
    # bob doubles and is swapped with cat: bob still doubles, on cat's range; cat's board is not doubled
    result = settle_question(
        new(),
        "12",
        board(ANN, "0", "100", swap=(BOB, CAT)),
        board(BOB, "0", "50", double=True),
        board(CAT, "11", "13"),
        board(DAN, "30", "40"),
    )
    assert result.ranges[BOB] == (R(11), R(13))
    assert result.points == {ANN: 1, BOB: 6, CAT: 1, DAN: 0}


def test_rule_5_a_copy_takes_the_range_not_the_boosts() -> None:
    result = settle_question(new(), "12", copy(ANN, BOB), board(BOB, "11", "13", double=True), board(CAT, "0", "20"))
    assert result.points == {ANN: 3, BOB: 6, CAT: 1, DAN: 0}


# -- rule 6: copies, swaps, doubles ----------------------------------------------------------------------


def test_rule_6_copy_chain_resolves_transitively() -> None:
    result = settle_question(new(), "12", copy(ANN, BOB), copy(BOB, CAT), board(CAT, "10", "14"), board(DAN, "0", "99"))
    assert result.ranges[ANN] == result.ranges[BOB] == (R(10), R(14))
    assert result.sources == {ANN: CAT, BOB: CAT, CAT: CAT, DAN: DAN}
    assert result.points == {ANN: 3, BOB: 3, CAT: 3, DAN: 0}  # everyone correct: dan, the biggest, 0


@pytest.mark.parametrize("cycle", [(ANN, BOB), (ANN, BOB, CAT)])
def test_rule_6_a_copy_cycle_of_any_length_has_no_range(cycle: tuple[str, ...]) -> None:
    boards = [copy(p, cycle[(i + 1) % len(cycle)]) for i, p in enumerate(cycle)]
    result = settle_question(new(), "12", *boards, board(DAN, "0", "99"))
    assert all(result.ranges[p] is None for p in cycle)
    assert result.points[DAN] == 3


def test_rule_6_a_chain_into_a_cycle_has_no_range() -> None:
    result = settle_question(new(), "12", copy(ANN, BOB), copy(BOB, CAT), copy(CAT, BOB), board(DAN, "0", "99"))
    assert result.ranges == {ANN: None, BOB: None, CAT: None, DAN: (R(0), R(99))}
    assert result.sources == {ANN: None, BOB: None, CAT: None, DAN: DAN}


def test_rule_6_copying_a_player_with_no_range_gives_no_range() -> None:
    result = settle_question(new(), "12", copy(ANN, DAN), board(BOB, "0", "99"))
    assert result.ranges[ANN] is None


def test_rule_6_copies_take_ranges_as_written_before_swaps() -> None:
    # ann copies bob; cat swaps bob and dan: ann has bob's written range, bob has dan's
    result = settle_question(
        new(),
        "12",
        copy(ANN, BOB),
        board(BOB, "10", "14"),
        board(CAT, "0", "99", swap=(BOB, DAN)),
        board(DAN, "50", "60"),
    )
    assert result.ranges == {ANN: (R(10), R(14)), BOB: (R(50), R(60)), CAT: (R(0), R(99)), DAN: (R(10), R(14))}


def test_rule_6_a_pair_exchanges_once_however_many_swaps_name_it() -> None:
    result = settle_question(
        new(),
        "12",
        board(ANN, "1", "2", swap=(BOB, CAT)),
        board(BOB, "3", "4"),
        board(CAT, "5", "6"),
        board(DAN, "7", "8", swap=(CAT, BOB)),
    )
    assert result.swap_groups == ((BOB, CAT),)
    assert result.ranges[BOB] == (R(5), R(6)) and result.ranges[CAT] == (R(3), R(4))


def test_rule_6_swap_web_passes_boards_clockwise_the_rules_md_example() -> None:
    # seats A B C D: A swaps B,C and B swaps C,D: group {B,C,D}: B's board to C, C's to D, D's to B
    result = settle_question(
        new(),
        "12",
        board(ANN, "1", "2", swap=(BOB, CAT)),
        board(BOB, "3", "4", swap=(CAT, DAN)),
        board(CAT, "5", "6"),
        board(DAN, "7", "8"),
    )
    assert result.swap_groups == ((BOB, CAT, DAN),)
    assert result.ranges == {ANN: (R(1), R(2)), BOB: (R(7), R(8)), CAT: (R(3), R(4)), DAN: (R(5), R(6))}


def test_rule_6_swap_web_goes_by_seat_order_not_by_naming_order() -> None:
    players = (ANN, BOB, CAT, DAN, EVE)
    # eve swaps dan,bob; ann swaps cat,dan: group {bob, cat, dan} in seat order
    result = settle_question(
        new(players),
        "12",
        board(ANN, "1", "2", swap=(CAT, DAN)),
        board(BOB, "3", "4"),
        board(CAT, "5", "6"),
        board(DAN, "7", "8"),
        board(EVE, "9", "10", swap=(DAN, BOB)),
    )
    assert result.swap_groups == ((BOB, CAT, DAN),)
    assert (result.ranges[BOB], result.ranges[CAT], result.ranges[DAN]) == ((R(7), R(8)), (R(3), R(4)), (R(5), R(6)))


def test_rule_6_two_separate_groups() -> None:
    players = (ANN, BOB, CAT, DAN, EVE)
    result = settle_question(
        new(players),
        "12",
        board(ANN, "1", "2", swap=(BOB, CAT)),
        board(BOB, "3", "4"),
        board(CAT, "5", "6", swap=(DAN, EVE)),
        board(DAN, "7", "8"),
        board(EVE, "9", "10"),
    )
    assert result.swap_groups == ((BOB, CAT), (DAN, EVE))
    assert result.ranges[BOB] == (R(5), R(6)) and result.ranges[EVE] == (R(7), R(8))


def test_rule_6_an_empty_board_moves_like_any_other() -> None:
    result = settle_question(
        new(), "12", board(ANN, "11", "13", swap=(BOB, DAN)), board(BOB, "10", "20"), board(CAT, "0", "99")
    )
    assert result.ranges[BOB] is None and result.ranges[DAN] == (R(10), R(20))
    assert result.points == {ANN: 3, BOB: 0, CAT: 1, DAN: 1}


def test_rule_6_double_doubles_negative_points_too() -> None:
    engine = new(variants=["minus_points"])
    result = settle_question(
        engine, "12", board(ANN, "11", "13"), board(BOB, "20", "30", double=True), board(CAT, "0", "99", double=True)
    )
    assert result.points == {ANN: 3, BOB: -2, CAT: 2, DAN: 0}
    assert engine.scores[BOB] == -2


def test_rule_6_double_with_no_range_is_0() -> None:
    result = settle_question(new(), "12", copy(ANN, BOB, double=True), copy(BOB, ANN), board(CAT, "0", "99"))
    assert result.points[ANN] == 0


# -- rule 7: winning -----------------------------------------------------------------------------------


def test_rule_7_one_player_crossing_wins() -> None:
    engine = new(target=3)
    settle_question(engine, "12", board(ANN, "11", "13"), board(BOB, "0", "99"))
    assert engine.finished and engine.winners() == [ANN]
    assert engine.phase == "finished"


def test_rule_7_several_crossing_the_smallest_size_wins_totals_not_compared() -> None:
    engine = new(target=4)
    settle_question(engine, "12", board(ANN, "0", "99"), board(BOB, "11", "13"), board(CAT, "0", "99"))  # 1, 3, 1
    result = settle_question(
        engine, "12", board(ANN, "20", "30"), board(BOB, "0", "50", double=True), board(CAT, "12", "12")
    )
    assert result.points == {ANN: 0, BOB: 2, CAT: 3, DAN: 0}
    assert engine.scores == {ANN: 1, BOB: 5, CAT: 4, DAN: 0}
    assert result.crossed == (BOB, CAT)
    assert engine.winners() == [CAT]  # size 0 beats bob's 50 though bob has the higher total


def test_rule_7_equal_smallest_sizes_share_the_win() -> None:
    engine = new(target=3)
    settle_question(engine, "12", board(ANN, "11", "13"), board(BOB, "12", "14"), board(CAT, "0", "99"))
    assert engine.winners() == [ANN, BOB]


def test_rule_7_deck_ran_out_highest_total_wins_ties_share() -> None:
    engine = new()
    settle_question(engine, "12", board(ANN, "11", "13"), board(BOB, "10", "14"), board(CAT, "12", "14"))
    play(engine, EndGame(HOST))
    assert engine.finished and engine.winners() == [ANN, CAT]
    assert engine.ending is not None and engine.ending.value == "deck_ran_out"


def test_rule_7_nothing_is_accepted_after_the_end() -> None:
    engine = new(target=3)
    settle_question(engine, "12", board(ANN, "11", "13"))
    refused(engine, ask(), WrongPhase, "the game is over")
    refused(engine, EndGame(HOST), WrongPhase, "the game is over")


# -- rule 8: variants --------------------------------------------------------------------------------------


def test_rule_8_final_hurdle_holds_a_1_point_award_at_target_minus_1() -> None:
    engine = new(target=4, variants=["final_hurdle"])
    settle_question(engine, "12", board(ANN, "11", "13"), board(BOB, "0", "99"))  # ann 3, bob 1
    result = settle_question(engine, "12", board(ANN, "0", "99"), board(BOB, "50", "60"), board(CAT, "11", "13"))
    assert result.capped == {ANN}
    assert result.points == {ANN: 0, BOB: 0, CAT: 3, DAN: 0}
    assert engine.scores[ANN] == 3
    assert not engine.finished


def test_rule_8_final_hurdle_caps_a_doubled_1_but_not_a_doubled_3() -> None:
    engine = new(target=5, variants=["final_hurdle"])
    settle_question(engine, "12", board(ANN, "11", "13"), board(BOB, "10", "14"), board(CAT, "0", "99"))  # 3, 1, 1
    result = settle_question(
        engine, "12", board(ANN, "0", "99", double=True), board(BOB, "11", "13", double=True), board(CAT, "10", "15")
    )
    assert result.points == {ANN: 1, BOB: 6, CAT: 1, DAN: 0}  # ann 3 + 2 capped at 4; bob 1 + 6 crosses
    assert result.capped == {ANN}
    assert engine.winners() == [BOB]


def test_rule_8_final_hurdle_crossing_with_a_3_pointer() -> None:
    engine = new(target=3, variants=["final_hurdle"])
    settle_question(engine, "12", board(ANN, "11", "13"))
    assert engine.winners() == [ANN]


def test_rule_8_nail_it_size_0_scores_5_and_10_doubled() -> None:
    result = settle_question(
        new(variants=["nail_it"]),
        "12",
        board(ANN, "12", "12", double=True),
        board(BOB, "12", "12"),
        board(CAT, "0", "99"),
    )
    assert result.points == {ANN: 10, BOB: 5, CAT: 1, DAN: 0}


def test_rule_8_without_nail_it_size_0_scores_3() -> None:
    result = settle_question(new(), "12", board(ANN, "12", "12"), board(CAT, "0", "99"))
    assert result.points[ANN] == 3


def test_rule_8_fast_play_boards_after_the_time_out_are_refused() -> None:
    engine = play(
        new(variants=["fast_play"], fast_play_seconds=5), ask(), board(ANN, "11", "13"), Close(HOST, "timeout")
    )
    assert engine.options["fast_play_seconds"] == 5
    refused(engine, board(BOB, "0", "99"), WrongPhase, "entries for question 1 are closed \\(timeout\\)")


def test_rule_8_top_two_smallest_3_next_distinct_size_1_others_0() -> None:
    result = settle_question(
        new(variants=["top_two"]),
        "12",
        board(ANN, "11", "13"),
        board(BOB, "10", "13"),
        board(CAT, "11", "14"),
        board(DAN, "0", "99"),
    )
    assert result.points == {ANN: 3, BOB: 1, CAT: 1, DAN: 0}  # sizes 2, 3, 3, 99: dan biggest, and rule 3


def test_rule_8_top_two_with_an_incorrect_range() -> None:
    result = settle_question(
        new(variants=["top_two"]),
        "12",
        board(ANN, "11", "13"),
        board(BOB, "10", "13"),
        board(CAT, "0", "99"),
        board(DAN, "50", "51"),
    )
    assert result.points == {ANN: 3, BOB: 1, CAT: 0, DAN: 0}


def test_rule_8_top_two_rule_3_still_applies() -> None:
    result = settle_question(
        new((ANN, BOB, CAT), variants=["top_two"]),
        "12",
        board(ANN, "11", "13"),
        board(BOB, "10", "13"),
        board(CAT, "10", "13"),
    )
    assert result.points == {ANN: 3, BOB: 0, CAT: 0}


def test_rule_8_minus_points_totals_may_go_below_zero() -> None:
    engine = new(variants=["minus_points"])
    settle_question(engine, "12", board(ANN, "20", "30"), board(BOB, "11", "13"))
    assert engine.scores == {ANN: -1, BOB: 3, CAT: 0, DAN: 0}


def test_rule_8_two_players_only_the_smallest_scores() -> None:
    engine = new((ANN, BOB), variants=["two_players"])
    result = settle_question(engine, "12", board(ANN, "11", "13"), board(BOB, "0", "99"))
    assert result.points == {ANN: 3, BOB: 0}
    result = settle_question(engine, "12", board(ANN, "11", "13"), board(BOB, "10", "12", double=True))
    assert result.points == {ANN: 3, BOB: 6}


def test_rule_8_two_players_only_smallest_even_if_other_is_correct_and_one_is_wrong() -> None:
    engine = new((ANN, BOB), variants=["two_players", "nail_it"])
    result = settle_question(engine, "12", board(ANN, "12", "12"), board(BOB, "50", "60"))
    assert result.points == {ANN: 5, BOB: 0}


def test_rule_8_two_players_double_is_the_only_boost() -> None:
    engine = play(new((ANN, BOB), variants=["two_players"]), ask())
    refused(engine, copy(ANN, BOB), BoostNotInVariant, "with Two Players, Double is the only boost")
    assert engine.legal_inputs(ANN) == {
        "answer": True,
        "boosts": ["double"],
        "copy": [],
        "swap": [],
        "status": "question 1 is open (waiting for ann, bob)",
    }
    play(engine, board(ANN, "0", "20", double=True))
    assert engine.boosts_left(ANN) == []


@pytest.mark.parametrize(
    ("players", "variants", "match"),
    [((ANN, BOB, CAT), ["two_players"], "exactly 2"), ((ANN, BOB), [], "3 or more players")],
)
def test_rule_8_two_players_is_exactly_two(players: tuple[str, ...], variants: list[str], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        new(players, variants=variants)


def test_rule_8_variants_combine() -> None:
    engine = new(target=6, variants=["nail_it", "minus_points", "final_hurdle", "top_two"])
    result = settle_question(
        engine,
        "12",
        board(ANN, "12", "12", double=True),
        board(BOB, "1", "2"),
        board(CAT, "10", "13"),
        board(DAN, "11", "13"),
    )
    assert result.points == {ANN: 10, BOB: -1, CAT: 0, DAN: 1}
    assert engine.winners() == [ANN]
