"""Estimation poker properties over random games (hypothesis): chips are conserved, no stack goes
negative, the pots add up to what was put in, a refused action changes nothing, the legal-action
query offers exactly what the engine accepts, rebuilding from the log gives the same engine, and the
public view never shows a range the rules have not revealed."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from appliance.errors import IllegalAction
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
from appliance.games.poker.pots import form_pots

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
HINTS = ("hint one", "hint two")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Check_ = Callable[[PokerEngine], None]
T = TypeVar("T")


class Tape:
    """The random choices of one game, drawn once by hypothesis (fast, and it still shrinks: a
    shrunk tape of zeros always picks the first option)."""

    def __init__(self, values: list[int]) -> None:
        self.values = values or [0]
        self.at = 0

    def pick(self, count: int) -> int:
        value = self.values[self.at % len(self.values)]
        self.at += 1
        return value % count

    def choice(self, options: Sequence[T]) -> T:
        return options[self.pick(len(options))]

    def between(self, low: int, high: int) -> int:
        return low + self.pick(high - low + 1)


GAMES = st.tuples(
    st.integers(2, 6),
    st.sampled_from([15, 40, 100, 250]),
    st.sampled_from([1, 5, 10]),
    st.lists(st.integers(0, 2**16), min_size=1, max_size=300),
)


def legal_move(engine: PokerEngine, tape: Tape) -> Action:
    player = engine.to_act
    assert player is not None
    offers = engine.legal_inputs(player)
    staying = [o for o in offers if o.kind != "fold"]
    offer = tape.choice(offers if tape.pick(5) == 0 else staying)  # fold now and then, not most of the time
    if offer.kind in ("bet", "raise"):
        to = tape.choice([offer.min_to, offer.max_to, tape.between(offer.min_to, offer.max_to)])
        return (Bet if offer.kind == "bet" else Raise)(player, to)
    return {"check": Check, "call": Call, "fold": Fold, "allin": AllIn}[offer.kind](player)


def any_move(engine: PokerEngine, tape: Tape) -> Action:
    """Any input at all, legal or not: a betting action, a range, a reveal or a host action."""
    player = tape.choice([*engine.players, HOST, "zed"])
    kind = tape.choice(["check", "call", "fold", "allin", "bet", "raise", "range", "reveal", "host"])
    if kind in ("bet", "raise"):
        to = tape.between(-5, max(engine.stacks.values()) + 50)
        return (Bet if kind == "bet" else Raise)(player, to)
    if kind == "range":
        return EnterRange(player, Decimal(tape.between(-10, 200)), Decimal(tape.between(-10, 200)))
    if kind == "host":
        return tape.choice([StartBetting(player), EndGame(player), question(engine, 1)])
    return {"check": Check, "call": Call, "fold": Fold, "allin": AllIn, "reveal": Reveal}[kind](player)


def question(engine: PokerEngine, ante: int, answer: int = 50) -> StartQuestion:
    return StartQuestion.deal(f"Question {len(engine.questions) + 1}", Decimal(answer), HINTS, ante)


def offered(engine: PokerEngine, candidate: Action) -> bool:
    for offer in engine.legal_inputs(candidate.player) if candidate.player in engine.players else []:
        if offer.kind == candidate.kind:
            return offer.min_to <= getattr(candidate, "to", offer.min_to) <= offer.max_to
    return False


def random_game(game: tuple[int, int, int, list[int]], after: Check_, probe: bool = False) -> PokerEngine:
    """Play a random game from equal stacks (stacks grow unequal by play); ``after`` runs after every
    accepted action; with ``probe``, random inputs of any kind are tried between the legal ones (a
    refused one must change nothing)."""
    count, stack, ante, choices = game
    tape = Tape(choices)
    players = NAMES[:count]
    engine = PokerEngine(players, {"stack": stack, "ante": ante, "first": tape.choice(players)})

    def apply(move: Action) -> None:
        engine.apply(move)
        after(engine)

    def try_anything() -> None:
        candidate = any_move(engine, tape)
        if engine.can(candidate):
            if engine.phase == "betting" or isinstance(candidate, EnterRange | Reveal):
                apply(candidate)  # host actions are left to the game loop below
            return
        before = engine.snapshot()
        with pytest.raises(IllegalAction):
            engine.apply(candidate)
        assert engine.snapshot() == before

    for _ in range(tape.between(1, 6)):
        if engine.finished:
            break
        apply(question(engine, ante * tape.between(1, 3), tape.choice([5, 45, 50, 100])))
        current = engine.current
        assert current is not None
        for player in current.dealt:
            if tape.pick(10):  # now and then a player enters no range and is folded
                low = tape.choice([0, 10, 40, 50])  # few distinct ranges: ties and splits happen
                apply(EnterRange(player, Decimal(low), Decimal(low + tape.choice([0, 10, 20, 60]))))
            if probe:
                try_anything()
        if not current.ranges:
            apply(EnterRange(current.dealt[0], Decimal(0), Decimal(100)))
        apply(StartBetting.now())
        while engine.phase == "betting":
            if probe:
                try_anything()
            if engine.phase == "betting":
                apply(legal_move(engine, tape))
        for player in engine.players:
            if probe:
                try_anything()
            if tape.pick(2) and engine.can(Reveal(player)):
                apply(Reveal(player))
    if not engine.finished and tape.pick(2):
        apply(EndGame.now())
    return engine


def put_in_now(engine: PokerEngine) -> int:
    current = engine.current
    return sum(current.put_in.values()) if current is not None and not current.settled else 0


@given(GAMES)
@SETTINGS
def test_chips_are_conserved_and_no_stack_goes_negative(game: tuple[int, int, int, list[int]]) -> None:
    totals: list[int] = []

    def after(engine: PokerEngine) -> None:
        assert all(chips >= 0 for chips in engine.stacks.values())
        totals.append(sum(engine.stacks.values()) + put_in_now(engine))

    engine = random_game(game, after)
    assert set(totals) == {engine.options["stack"] * len(engine.players)}


@given(GAMES)
@SETTINGS
def test_the_pots_add_up_to_what_was_put_in(game: tuple[int, int, int, list[int]]) -> None:
    def after(engine: PokerEngine) -> None:
        current = engine.current
        if current is None:
            return
        if not current.settled:
            pots = form_pots(current.dealt, current.put_in, current.folded, engine.all_in(current))
            assert sum(p.amount for p in pots) == sum(current.put_in.values())
            assert all(p.eligible and set(p.eligible) <= set(current.live()) for p in pots)
            return
        outcome = current.outcome
        assert outcome is not None
        assert sum(r.pot.amount for r in outcome.pots) == sum(current.put_in.values())
        for result in outcome.pots:
            assert result.winners and set(result.winners) <= set(result.pot.eligible)
            assert sum(result.shares.values()) == result.pot.amount
            shares = sorted(result.shares.values())
            assert shares[-1] - shares[0] < len(shares)  # equal shares but for the odd chips

    random_game(game, after)


@given(GAMES, st.lists(st.integers(-2, 1200), max_size=8))
@SETTINGS
def test_a_refused_action_changes_nothing_and_the_offers_are_exactly_what_is_accepted(
    game: tuple[int, int, int, list[int]], amounts: list[int]
) -> None:
    def after(engine: PokerEngine) -> None:
        to_act = engine.to_act
        if to_act is None:
            return
        for kind in (Check, Call, Fold, AllIn):
            assert engine.can(kind(to_act)) == offered(engine, kind(to_act))
        for to in amounts:
            for sized in (Bet(to_act, to), Raise(to_act, to)):
                assert engine.can(sized) == offered(engine, sized)
        for offer in engine.legal_inputs(to_act):
            assert offer.min_to <= offer.max_to

    random_game(game, after, probe=True)


@given(GAMES)
@SETTINGS
def test_rebuilding_from_the_json_log_gives_the_same_engine(game: tuple[int, int, int, list[int]]) -> None:
    engine = random_game(game, lambda engine: None, probe=True)
    stored = json.loads(json.dumps([a.to_json() for a in engine.log]))
    rebuilt = PokerEngine.rebuild(engine.players, engine.options, [engine.action_from_json(d) for d in stored])
    assert rebuilt.snapshot() == engine.snapshot()
    assert rebuilt.public_view() == engine.public_view()


@given(GAMES)
@SETTINGS
def test_the_public_view_shows_only_ranges_the_rules_revealed(game: tuple[int, int, int, list[int]]) -> None:
    def after(engine: PokerEngine) -> None:
        current = engine.current
        shown = engine.public_view()["question"]["ranges"] if current else {}
        if current is None or not current.settled:
            assert shown == {}
            return
        outcome = current.outcome
        assert outcome is not None
        expected = set(outcome.shown) | set(current.shown_by_choice)
        assert set(shown) == expected
        assert outcome.shown == (tuple(current.live()) if len(current.live()) > 1 else ())

    random_game(game, after, probe=True)
