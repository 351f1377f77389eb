"""Confident? properties (hypothesis): random legal games reach an end with sound totals and points
within the rules' maxima; a refused input changes nothing; a rebuild from the log is exact."""

from __future__ import annotations

from decimal import Decimal
from typing import Protocol, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.errors import IllegalAction
from appliance.games.base import HOST, Action
from appliance.games.confident.actions import Answer, Close, EndGame, Settle, StartQuestion
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.confident.options import Variant
from appliance.games.confident.settlement import Settlement

T = TypeVar("T")


class Draw(Protocol):
    """``data.draw`` or a composite's ``draw``."""

    def __call__(self, strategy: st.SearchStrategy[T]) -> T: ...


NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
ONE_OF_EACH = [v.value for v in Variant if v is not Variant.TWO_PLAYERS]

numbers = st.one_of(
    st.integers(min_value=-10, max_value=30).map(Decimal),
    st.sampled_from([Decimal("0.5"), Decimal("-0.25"), Decimal("12.5"), Decimal("1E3")]),
)


@st.composite
def engines(draw: st.DrawFn) -> ConfidentEngine:
    """A fresh game: 3-6 players with any variants but Two Players, or 2 players with it."""
    variants = draw(st.lists(st.sampled_from(ONE_OF_EACH), unique=True))
    players: tuple[str, ...] = NAMES[:2]
    if draw(st.booleans()) and draw(st.booleans()):
        variants.append(Variant.TWO_PLAYERS.value)
    else:
        players = NAMES[: draw(st.integers(min_value=3, max_value=6))]
    target = draw(st.integers(min_value=3, max_value=15))
    return ConfidentEngine(players, {"target": target, "variants": variants})


def legal_board(draw: Draw, engine: ConfidentEngine, player: str) -> Answer:
    """A board ``player`` may write now, boosts drawn from what the handset would offer."""
    legal = engine.legal_inputs(player)
    copy_of = draw(st.sampled_from(legal["copy"])) if legal["copy"] and draw(st.booleans()) else None
    written = None
    if copy_of is None:
        bottom = draw(numbers)
        written = (bottom, bottom + draw(st.integers(min_value=0, max_value=30)))
    swap = None
    if len(legal["swap"]) >= 2 and draw(st.booleans()):
        pair = draw(st.lists(st.sampled_from(legal["swap"]), min_size=2, max_size=2, unique=True))
        swap = (pair[0], pair[1])
    double = "double" in legal["boosts"] and draw(st.booleans())
    return Answer(player, written, copy_of, swap, double)


def play_question(draw: Draw, engine: ConfidentEngine) -> Settlement:
    engine.apply(StartQuestion(HOST, "How many?", draw(numbers), ""))
    writers = draw(st.lists(st.sampled_from(engine.players), unique=True))
    for player in writers:
        action = legal_board(draw, engine, player)
        assert engine.can(action), action
        engine.apply(action)
    reason = "everyone_in" if len(writers) == len(engine.players) and draw(st.booleans()) else "timeout"
    engine.apply(Close(HOST, reason))
    engine.apply(Settle(HOST))
    question = engine.current
    assert question is not None and question.settlement is not None
    return question.settlement


def check_points(engine: ConfidentEngine, result: Settlement, before: dict[str, int]) -> None:
    nail_it = Variant.NAIL_IT in engine.variants
    top = 5 if nail_it else 3
    low = -2 if Variant.MINUS_POINTS in engine.variants else 0
    for player in engine.players:
        points = result.points[player]
        assert low <= points <= 2 * top
        assert result.scores[player] == before[player] + points
        if player in result.smallest:
            assert points in {3, 6, 5, 10} or player in result.capped
        if result.ranges[player] is None:
            assert points == 0
        if Variant.FINAL_HURDLE in engine.variants and result.scores[player] >= engine.target:
            assert player in result.smallest  # only a smallest-range award crosses the Final Hurdle
        if player in result.capped:
            assert result.scores[player] == engine.target - 1
    if all(result.correct.values()) and len(set(result.sizes.values())) > 1:
        biggest = max(s for s in result.sizes.values() if s is not None)
        assert all(result.points[p] == 0 for p in engine.players if result.sizes[p] == biggest)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_random_legal_games_end_with_sound_totals(data: st.DataObject) -> None:
    engine = data.draw(engines())
    for _ in range(data.draw(st.integers(min_value=1, max_value=10))):
        before = dict(engine.scores)
        result = play_question(data.draw, engine)
        check_points(engine, result, before)
        if engine.finished:
            assert set(engine.winners()) <= set(result.crossed)
            assert engine.winners(), "someone crossed, so someone won"
            break
    if not engine.finished:
        engine.apply(EndGame(HOST))
        best = max(engine.scores.values())
        assert engine.winners() == [p for p in engine.players if engine.scores[p] == best]
    assert engine.finished and engine.phase == "finished"
    totals = {p: sum(q.settlement.points[p] for q in engine.questions if q.settlement) for p in engine.players}
    assert totals == engine.scores
    rebuilt = ConfidentEngine.rebuild(
        engine.players, engine.options, [engine.action_from_json(a.to_json()) for a in engine.log]
    )
    assert rebuilt.snapshot() == engine.snapshot()
    assert rebuilt.public_view() == engine.public_view()


def any_action(draw: Draw, engine: ConfidentEngine) -> Action:
    """Anything a handset or host could send, legal or not."""
    names = [*engine.players, "zed"]
    kind = draw(st.sampled_from(["answer", "answer", "answer", "question", "close", "settle", "end"]))
    who = draw(st.sampled_from([HOST, HOST, HOST, *names])) if kind != "answer" else draw(st.sampled_from(names))
    if kind == "question":
        return StartQuestion(who, "Q?", draw(numbers))
    if kind == "close":
        return Close(who, draw(st.sampled_from(["timeout", "everyone_in"])))
    if kind == "settle":
        return Settle(who)
    if kind == "end":
        return EndGame(who)
    written = (draw(numbers), draw(numbers)) if draw(st.booleans()) else None
    copy_of = draw(st.sampled_from(names)) if draw(st.booleans()) else None
    swap = (draw(st.sampled_from(names)), draw(st.sampled_from(names))) if draw(st.booleans()) else None
    return Answer(who, written, copy_of, swap, draw(st.booleans()))


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_refused_input_changes_nothing_and_the_log_rebuilds_the_state(data: st.DataObject) -> None:
    engine = data.draw(engines())
    refusals = 0
    for _ in range(data.draw(st.integers(min_value=1, max_value=60))):
        action = any_action(data.draw, engine)
        before = engine.snapshot()
        legal = engine.can(action)
        try:
            engine.apply(action)
        except IllegalAction:
            refusals += 1
            assert not legal
            assert engine.snapshot() == before
        else:
            assert legal
            assert engine.log[-1] == action
    rebuilt = ConfidentEngine.rebuild(engine.players, engine.options, engine.log)
    assert rebuilt.snapshot() == engine.snapshot()
    for player in engine.players:
        assert rebuilt.private_view(player) == engine.private_view(player)
