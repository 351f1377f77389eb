"""The game registry: every per-game table of the box derives from its entries and covers exactly them,
and what the set-up page offers (seat limits, option defaults) is what the engines accept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from appliance.board.compose import GAMES as BOARD_GAMES
from appliance.board.scenes import common, intro
from appliance.box import replay
from appliance.decks import deal
from appliance.decks.model import DECK_TYPES
from appliance.errors import MalformedInput
from appliance.flows import TABLE, flow_factory
from appliance.games import registry
from appliance.games.registry import SPECS, GameSpec
from appliance.hardware import sound
from web import catalogue, standings

IDS = {spec.id for spec in SPECS}


def test_the_registry_has_the_five_games_once_each() -> None:
    assert [spec.id for spec in SPECS] == ["confident", "poker", "allin", "squizz", "buzzer"]
    assert set(registry.GAMES) == IDS == set(registry.IDS)


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("appliance.flows.TABLE", TABLE),
        ("board.BOARD_GAMES", BOARD_GAMES),
        ("scenes.common.GAME_TITLES", common.GAME_TITLES),
        ("scenes.intro.RULES", intro.RULES),
        ("decks.deal.DECK_TYPE", deal.DECK_TYPE),
        ("web.catalogue.GAMES", catalogue.GAMES),
    ],
)
def test_every_derived_table_covers_exactly_the_registered_games(name: str, table: Mapping[str, Any]) -> None:
    assert set(table) == IDS, name


def test_replay_knows_exactly_the_games_with_a_scenario_adapter() -> None:
    with_adapter = {spec.id for spec in SPECS if spec.adapter is not None}
    assert set(replay.QUESTION_EXTRA) == with_adapter == IDS
    assert replay.QUESTION_EXTRA["squizz"] == ("die",)
    for spec in SPECS:
        if spec.adapter is not None:
            assert spec.adapter.game == spec.id
            assert isinstance(spec.adapter.new_engine(_seats(spec), {}), spec.engine)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_each_layer_reads_the_same_entry(spec: GameSpec) -> None:
    assert TABLE[spec.id].game is spec
    assert flow_factory(spec.id) is TABLE[spec.id].flow
    assert TABLE[spec.id].flow.game == spec.id
    assert BOARD_GAMES[spec.id].__name__ == f"appliance.board.scenes.{spec.scene}"
    assert common.game_title(spec.id) == spec.title == catalogue.GAMES[spec.id].name
    assert intro.RULES[spec.id] == spec.intro and spec.intro
    assert deal.DECK_TYPE[spec.id] == spec.deck and spec.deck in DECK_TYPES
    assert set(spec.cues.values()) <= set(sound.CUES)
    assert all(sound.cue_name((f"{spec.id}-{moment}", 0)) == cue for moment, cue in spec.cues.items())


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_the_set_up_page_offers_the_engines_seat_limits_and_defaults(spec: GameSpec) -> None:
    game = catalogue.GAMES[spec.id]
    assert (game.min_players, game.max_players) == (spec.engine.min_players, spec.engine.max_players)
    engine = spec.engine(_seats(spec), {})
    for name, value in spec.defaults.items():
        assert engine.options[name] == (list(value) if isinstance(value, tuple) else value), name
    # the page's fields as first shown (each at its default) give exactly the engine's default options
    form = {f"{spec.id}.{s.name}": _shown(s.default) for s in game.options if s.default is not None}
    chosen = catalogue.options_from_form(game, form, engine.players)
    assert spec.engine(engine.players, chosen).options == engine.options
    with pytest.raises(Exception):  # noqa: B017 - the engine's own refusal (ConfigError) for one seat too many
        spec.engine([f"P{i}" for i in range(spec.engine.max_players + 1)], {})


def test_confident_offers_the_forty_seats_its_engine_allows() -> None:
    """Issue 14: New game offered Confident? 2-8 seats while the engine seats 12; the room seats 40."""
    assert catalogue.GAMES["confident"].max_players == 40


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_the_web_reads_each_game_standing_through_its_entry(spec: GameSpec) -> None:
    engine = spec.engine(_seats(spec), {})
    view = engine.public_view()
    read = standings.read(spec.id, view)
    assert read == spec.standing(view, list(engine.players))
    assert list(read.points) == list(engine.players)


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(MalformedInput, match="unknown game 'chess'; expected one of confident, poker"):
        registry.spec("chess")
    with pytest.raises(MalformedInput, match="unknown game 'chess'"):
        flow_factory("chess")


def test_a_spec_must_name_its_own_engine() -> None:
    poker = registry.spec("poker")
    with pytest.raises(ValueError, match="names the 'poker' engine"):
        GameSpec("confident", "x", poker.engine, "estimation", "", (), poker.standing)


def _seats(spec: GameSpec) -> list[str]:
    count = max(3, spec.engine.min_players)  # Confident? needs 3 without its Two Players variant
    return [f"P{i}" for i in range(count)]


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "yes" if default else "no"
    return str(default)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_every_public_view_carries_the_same_standings_block(spec: GameSpec) -> None:
    """The base puts ``standings`` (heading, unit, points in seat order) in every public view, so the board
    and the web read one block instead of each game's own keys."""
    engine = spec.engine(_seats(spec), {})
    block = engine.public_view()["standings"]
    assert set(block) == {"heading", "unit", "points"}
    assert list(block["points"]) == list(engine.players)
    assert all(isinstance(v, int) for v in block["points"].values())
    assert standings.read(spec.id, engine.public_view()).points == block["points"]
    snapshot = engine.snapshot()
    assert {"players", "options", "phase", "winners", "log"} <= set(snapshot)
    assert engine.finished is False and engine.winners() == [] and engine.phase == snapshot["phase"]


def test_squizz_standings_show_correct_answers_until_the_end() -> None:
    """rules.md sQuizz 5: token values stay hidden, so the public table counts correct answers."""
    engine = registry.spec("squizz").engine(["ann", "bob"], {})
    block = engine.public_view()["standings"]
    assert (block["heading"], block["unit"]) == ("Correct answers", "correct")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.id)
def test_the_flow_options_the_registry_names_are_the_flows_and_not_the_engines(spec: GameSpec) -> None:
    """A night's round passes ``flow_options`` to the flow and the rest to the engine: each one named
    must be taken by the flow (it starts with it) and refused by the engine (it is not the engine's)."""
    import random

    from appliance.errors import ConfigError
    from appliance.games.dealt import DealtCard
    from appliance.session.flow import GameSetup

    players = ["Ann", "Bob", "Cat", "Dan"]
    cards = [DealtCard(f"c{i}", {"question": "How many?", "answer": "5", "true_statements": ["a"],
                            "false_statements": ["b", "c"], "propositions": ["1", "2", "3"], "values": ["1", "2", "3"],
                            "hint1": "more than 1", "hint2": "less than 9", "die": "largest"}) for i in range(3)]
    for name in spec.flow_options:
        value = 0 if spec.id == "buzzer" and name == "answer_seconds" else 2
        with pytest.raises(ConfigError):
            spec.engine(players, {name: value})
        try:
            flow_factory(spec.id)(GameSetup(spec.id, players, {name: value}, cards), random.Random(1), 0.0)
        except ConfigError as exc:
            assert name not in str(exc), exc  # the flow took it (a card it does not like is another matter)


def test_squizz_offers_forty_seats_and_the_room_form_on_the_set_up_page() -> None:
    """docs/rules.md squizz-room: 2-40 seats; the page's readers choice and tokens become the engine's options."""
    game = catalogue.GAMES["squizz"]
    assert (game.min_players, game.max_players) == (2, 40)
    assert [o.name for o in game.options] == ["readers", "tokens", "first_reader"]
    room = [f"T{i}" for i in range(24)]
    assert catalogue.options_from_form(game, {"squizz.readers": "auto", "squizz.tokens": "8"}, room) == {"tokens": 8}
    five = room[:5]
    assert catalogue.options_from_form(game, {"squizz.readers": "no", "squizz.tokens": "3"}, five) == {
        "readers": False, "tokens": 3}
    assert catalogue.options_from_form(game, {"squizz.readers": "yes", "squizz.tokens": "6"}, five) == {
        "readers": True}
    with pytest.raises(catalogue.OptionProblem, match="only when the box reads every card"):
        catalogue.options_from_form(game, {"squizz.readers": "yes", "squizz.tokens": "5"}, five)
