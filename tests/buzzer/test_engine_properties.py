"""Buzzer engine properties (hypothesis): random action sequences, legal or not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from appliance.errors import IllegalAction
from appliance.games.base import HOST, Action
from appliance.games.buzzer import Arm, BuzzerEngine, Close, Declare, EndGame, Judge, Press, StartQuestion
from appliance.games.buzzer.engine import EARLY_SLACK_MS
from appliance.games.buzzer.state import Buzz, Question

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]

times = st.integers(min_value=-1000, max_value=10_000)
actions = st.one_of(
    st.builds(Press, st.sampled_from([*PLAYERS, "Zed"]), times),
    st.builds(Press, st.sampled_from(PLAYERS), times),
    st.builds(Arm, st.just(HOST), times),
    st.builds(StartQuestion, st.just(HOST), st.sampled_from(["", "Who?"])),
    st.just(Declare(HOST)),
    st.builds(Judge, st.just(HOST), st.booleans()),
    st.just(Close(HOST)),
    st.just(EndGame(HOST)),
)
options = st.fixed_dictionaries({
    "lockout": st.booleans(),
    "points_right": st.integers(-5, 5),
    "points_wrong": st.integers(-5, 5),
})


def earliest_unjudged(question: Question) -> str | None:
    waiting = [b for b in question.buzzes.values() if b.player not in question.wrong]
    return min(waiting, key=lambda b: (b.at, b.arrival)).player if waiting else None


def check_invariants(game: BuzzerEngine, first: dict[tuple[int, str], Buzz]) -> None:
    """``first``: every buzz seen so far by (question, player); a buzz, once in, never changes."""
    right = game.options["points_right"]
    wrong = game.options["points_wrong"]
    expected = {p: 0 for p in game.players}
    for question in game.questions:
        players = list(question.buzzes)
        for player, buzz in question.buzzes.items():
            assert first.setdefault((question.number, player), buzz) == buzz, "one buzz per player per question"
        assert sorted(b.arrival for b in question.buzzes.values()) == list(range(len(players)))
        assert not set(players) & set(question.locked_out), "a locked-out player never buzzes"
        assert set(question.wrong) <= set(players)
        if question.armed_at is not None:
            assert all(b.at >= question.armed_at for b in question.buzzes.values()), "no buzz before arming"
        if question.answering is not None:
            assert question.answering in players and question.answering not in question.wrong
        if question.right is not None:
            expected[question.right] += right
        for player in question.wrong:
            expected[player] += wrong
    assert game.scores == expected


@settings(max_examples=250, deadline=None)
@given(options, st.lists(actions, max_size=60))
def test_any_sequence_keeps_the_rules(opts: dict[str, object], sequence: list[Action]) -> None:
    game = BuzzerEngine(PLAYERS, opts)
    first: dict[tuple[int, str], Buzz] = {}
    for action in sequence:
        before = game.snapshot()
        try:
            game.apply(action)
        except IllegalAction:
            assert game.snapshot() == before  # a refusal changes nothing
            continue
        question = game.current
        if isinstance(action, Declare) or (isinstance(action, Judge) and not action.right):
            # rules.md Buzzer 2: the earliest press not yet judged answers (after a declare or a wrong);
            # nobody answers only when nobody is left in line
            assert question is not None
            assert question.answering == earliest_unjudged(question)
        check_invariants(game, first)
    rebuilt = BuzzerEngine.rebuild(PLAYERS, game.options, [game.action_from_json(a.to_json()) for a in game.log])
    assert rebuilt.snapshot() == game.snapshot()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(PLAYERS), times), min_size=1, max_size=5, unique_by=lambda t: t[0]))
def test_wrong_after_wrong_walks_the_press_order(presses: list[tuple[str, int]]) -> None:
    game = BuzzerEngine(PLAYERS, {})
    game.apply(StartQuestion(HOST))
    game.apply(Arm(HOST, 0))
    for player, at in presses:
        game.apply(Press(player, at))
    if game.phase == "settling":  # someone pressed after the arming
        game.apply(Declare(HOST))
    answered = []
    while game.phase == "answering":
        question = game.current
        assert question is not None and question.answering is not None
        answered.append(question.answering)
        game.apply(Judge(HOST, False))
    # sorted by the press time (a stamp up to EARLY_SLACK_MS early: at the arming), equal times by arrival;
    # an earlier stamp pressed before the arming: locked out (rules.md Buzzer 1)
    arrival = {p: i for i, (p, at) in enumerate(presses) if at >= -EARLY_SLACK_MS}
    assert answered == sorted(arrival, key=lambda p: (max(dict(presses)[p], 0), arrival[p]))
    assert game.public_view()["buzzes"] == answered
    assert game.public_view()["locked_out"] == [p for p, at in presses if at < -EARLY_SLACK_MS]
