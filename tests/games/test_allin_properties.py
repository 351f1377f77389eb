"""All In properties over random legal games (hypothesis).

A random game is driven through the engine's own legal-input query, so the same walk also checks
that what the query offers is accepted; the host may close the splits at any random moment of
betting (the product's decision, appliance.games.allin.actions.Close). Properties: games run to the
end by rules.md All In 6, chips are never created and a bettor who sat a close out keeps every
chip, a refused input (a close included) changes nothing, the log rebuilds the live engine, and
neither the TV nor another player's handset can tell a secret before its reveal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance.games.allin import AllInEngine, Close, CloseReason, EndGame, Read, Split, StartQuestion
from appliance.games.base import HOST, Action
from tests.games.probing import refuse_probes

SEATS = ("ann", "bob", "cat", "dan", "eve", "fay")
MAX_QUESTIONS = 14
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def card(number: int) -> StartQuestion:
    return StartQuestion.deal((f"statement {number}a", f"statement {number}b", f"statement {number}c"))


def next_action(engine: AllInEngine, data: st.DataObject) -> Action:
    """One legal input, chosen from what :meth:`AllInEngine.legal_inputs` offers."""
    if engine.phase == "card":
        played = len(engine.questions)
        out_of_cards = played >= MAX_QUESTIONS or (played > 0 and data.draw(st.integers(0, 19)) == 0)
        return EndGame.deck_out() if out_of_cards else card(len(engine.questions) + 1)
    question = engine.current
    assert question is not None
    if engine.phase == "reading":
        legal = engine.legal_inputs(question.reader)
        assert legal is not None and legal["input"] == "read"
        exclude = data.draw(st.none() | st.sampled_from(legal["exclude"])) if legal["exclude"] else None
        return Read(question.reader, data.draw(st.sampled_from(legal["picks"])), data.draw(st.booleans()), exclude)
    if data.draw(st.integers(0, 5), label="close now") == 0:  # the host stops waiting, at any moment
        return Close.by(data.draw(st.sampled_from(CloseReason), label="reason"))
    bettor = data.draw(st.sampled_from(question.waiting_for))
    legal = engine.legal_inputs(bettor)
    assert legal is not None and legal["input"] == "split"
    on_true = data.draw(st.integers(0, legal["total"]))
    return Split(bettor, on_true, legal["total"] - on_true)


def random_game(data: st.DataObject, after_each: Callable[[AllInEngine], None] = lambda e: None) -> AllInEngine:
    count = data.draw(st.integers(2, len(SEATS)), label="players")
    chips = data.draw(st.integers(1, 6), label="chips")
    engine = AllInEngine(SEATS[:count], {"chips": chips})
    while not engine.finished:
        engine.apply(next_action(engine, data))
        after_each(engine)
    return engine


@SETTINGS
@given(st.data())
def test_random_games_end_by_the_rules_and_never_create_chips(data: st.DataObject) -> None:
    totals: list[int] = []
    before: list[dict[str, int]] = []

    def check_chips(engine: AllInEngine) -> None:
        assert all(c >= 0 for c in engine.chips.values())
        question = engine.current
        if before and question is not None and question.revealed and question.closed is not None:
            assert all(engine.chips[p] == before[-1][p] for p in question.sat_out)  # sat out: keeps every chip
            assert not set(question.sat_out) & (set(question.lost) | set(question.bettors))
        before.append(dict(engine.chips))
        lost = sum(sum(q.lost.values()) for q in engine.questions)
        assert engine.total_chips() == engine.options["chips"] * len(engine.players) - lost
        assert not totals or engine.total_chips() <= totals[-1]
        totals.append(engine.total_chips())

    engine = random_game(data, check_chips)
    assert all(q.closed is None or q.revealed for q in engine.questions)  # a close always reveals
    holders = [p for p in engine.players if engine.chips[p] > 0]
    assert engine.ending is not None
    if engine.ending.value == "last_with_chips":
        assert engine.winners() == holders and len(holders) == 1
    elif engine.ending.value == "nobody_with_chips":
        assert holders == [] and engine.current is not None and engine.winners() == [engine.current.reader]
    else:
        most = max(engine.chips.values())
        assert engine.winners() == [p for p in engine.players if engine.chips[p] == most]
    for question in engine.questions:  # rules.md All In 2: one seat clockwise per question
        assert question.reader == engine.players[(question.number - 1) % len(engine.players)]
    used = [q.reader for q in engine.questions if q.excluded is not None]
    assert len(used) == len(set(used))  # rules.md All In 1: one exclusion per player per game


def probes(players: tuple[str, ...]) -> list[Action]:
    """Well-formed All In inputs, legal or not: every kind from every seat, the host and a stranger,
    with picks, splits and exclusions inside and outside the rules."""
    who = (*players, HOST, "zed")
    splits = ((-1, 2), (0, 0), (1, 0), (0, 1), (2, 1), (0, 3), (3, 3), (6, 0))
    return [
        *(StartQuestion(w, ("x", "y", "z")) for w in who),
        *(Read(w, pick, True, exclude) for w in who for pick in (-1, 0, 3) for exclude in (None, *who)),
        *(Split(w, t, f) for w in who for t, f in splits),
        *(EndGame(w) for w in who),
        *(Close(w, reason) for w in who for reason in CloseReason),
    ]


@SETTINGS
@given(st.data())
def test_a_refused_input_leaves_the_snapshot_exactly_as_it_was(data: st.DataObject) -> None:
    candidates: list[Action] = []

    def try_something_else(engine: AllInEngine) -> None:
        if not candidates:
            candidates.extend(probes(engine.players))
        refuse_probes(engine, data, candidates)

    random_game(data, try_something_else)


@SETTINGS
@given(st.data())
def test_rebuild_from_the_log_equals_the_live_engine(data: st.DataObject) -> None:
    def rebuild_equals(engine: AllInEngine) -> None:
        stored = [action.to_json() for action in engine.log]
        rebuilt = AllInEngine.rebuild(engine.players, engine.options, [engine.action_from_json(a) for a in stored])
        assert rebuilt.snapshot() == engine.snapshot()
        assert rebuilt.public_view() == engine.public_view()

    rebuild_equals(random_game(data, rebuild_equals))


def twin(engine: AllInEngine, *, answer: bool, splits: bool) -> AllInEngine:
    """The same game except for the open question's secrets: the reader's answer flipped and the
    statements not picked rewritten (``answer``), or every split made so far mirrored (``splits``)."""
    log = list(engine.log)
    opened = max(i for i, action in enumerate(log) if isinstance(action, StartQuestion))
    question = engine.current
    assert question is not None
    for i in range(opened, len(log)):
        action = log[i]
        if answer and isinstance(action, StartQuestion):
            texts = tuple(t if n == question.pick else f"secret {n}" for n, t in enumerate(action.statements))
            log[i] = replace(action, statements=texts)
        elif answer and isinstance(action, Read):
            log[i] = replace(action, answer=not action.answer)
        elif splits and isinstance(action, Split):
            log[i] = replace(action, on_true=action.on_false, on_false=action.on_true)
    return AllInEngine.rebuild(engine.players, engine.options, log)


@SETTINGS
@given(st.data())
def test_no_view_tells_a_secret_before_its_reveal(data: st.DataObject) -> None:
    checked = 0

    def secrets_stay_hidden(engine: AllInEngine) -> None:
        nonlocal checked
        question = engine.current
        if question is None or question.revealed:
            return
        other_answer = twin(engine, answer=True, splits=False)
        assert other_answer.public_view() == engine.public_view()
        for player in engine.players:
            if player != question.reader:
                assert other_answer.private_view(player) == engine.private_view(player)
        other_splits = twin(engine, answer=False, splits=True)
        assert other_splits.public_view() == engine.public_view()
        for player in engine.players:
            if player not in question.splits:
                assert other_splits.private_view(player) == engine.private_view(player)
        checked += 1

    random_game(data, secrets_stay_hidden)
    assert checked > 0
