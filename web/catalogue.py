"""The games the set-up page offers (the game registry's entries: deck type, seat counts and options as the
engines give them), and how a form becomes options.

The engines decide whether options are legal (``validate_options``); the appliance refuses a bad set-up
when the game starts and the page shows its reason. This module only turns form fields into the option
values each engine reads (rules.md Confident 8 variants, poker stack/ante/schedule, All In chips, sQuizz
readers, tokens and first reader, the buzzer's lock-out and points).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from appliance.errors import ConfigError
from appliance.games import registry
from appliance.games.registry import GameSpec, Setting
from appliance.games.squizz.table import READERS_AUTO, setup_options

Option = Setting
"""One option the page offers (the registry's :class:`~appliance.games.registry.Setting`)."""


@dataclass(frozen=True)
class Game:
    id: str
    name: str
    deck_type: str
    min_players: int
    max_players: int
    blurb: str
    options: tuple[Option, ...] = field(default_factory=tuple)


def _game(spec: GameSpec) -> Game:
    """The set-up page's game from its registry entry: seat limits and option defaults are the engine's."""
    return Game(spec.id, spec.title, spec.deck, spec.min_players, spec.max_players, spec.blurb, spec.settings)


GAMES: dict[str, Game] = {spec.id: _game(spec) for spec in registry.SPECS}


def games(extra: Mapping[str, str]) -> dict[str, Game]:
    """The registered games plus any extra game (game id -> deck type) offered without options."""
    out = dict(GAMES)
    for game_id, deck_type in extra.items():
        out.setdefault(game_id, Game(game_id, game_id, deck_type, 2, 12, "An extra game registered on this box."))
    return out


class OptionProblem(ValueError):
    pass


def options_from_form(game: Game, form: Mapping[str, str], players: Sequence[str]) -> dict[str, Any]:
    """The ``options`` of a start command from the set-up form (blank fields keep the game's default)."""
    options: dict[str, Any] = {}
    variants: list[str] = []
    for option in game.options:
        raw = str(form.get(f"{game.id}.{option.name}", "")).strip()
        if option.kind == "check":
            if raw in ("on", "true", "1"):
                variants.append(option.name.split(":", 1)[1])
        elif option.kind == "int":
            if raw:
                if not raw.lstrip("-").isdigit():
                    raise OptionProblem(f"{option.label}: a whole number, please (got {raw!r})")
                value = int(raw)
                if option.low is not None and option.high is not None and not option.low <= value <= option.high:
                    raise OptionProblem(f"{option.label}: from {option.low} to {option.high}, please")
                options[option.name] = value
        elif option.kind == "player":
            if raw:
                if raw not in players:
                    raise OptionProblem(f"{option.label}: {raw!r} is not seated")
                options[option.name] = raw
        elif option.kind == "flag" and raw:
            if raw not in ("yes", "no"):
                raise OptionProblem(f"{option.label}: yes or no, please")
            options[option.name] = raw == "yes"
        elif option.kind == "choice" and raw:
            if raw not in dict(option.choices):
                raise OptionProblem(f"{option.label}: choose one of the offered values")
            options[option.name] = raw
    if game.id == "confident":
        options["variants"] = variants
    if game.id == "squizz":
        tokens = options.pop("tokens", None)
        try:
            options |= setup_options(options.pop("readers", READERS_AUTO), tokens, len(players))
        except ConfigError as exc:
            raise OptionProblem(str(exc)) from None
    if game.id == "poker":
        unit = options.pop("ante_unit", "minutes")
        every = options.pop("ante_every", None)
        if every is not None:
            options["ante_every"] = {unit: every}
    return options
