"""The games the set-up page offers: their deck type, seat counts and options, and how a form becomes options.

The engines decide whether options are legal (``validate_options``); the appliance refuses a bad set-up
when the game starts and the page shows its reason. This module only turns form fields into the option
values each engine reads (rules.md Confident 8 variants, poker stack/ante/schedule, All In chips, sQuizz
first reader).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    name: str
    label: str
    kind: str  # "int", "check" (one variant of a list), "player", "choice"
    default: Any = None
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Game:
    id: str
    name: str
    deck_type: str
    min_players: int
    max_players: int
    blurb: str
    options: tuple[Option, ...] = field(default_factory=tuple)


CONFIDENT_VARIANTS = (
    ("final_hurdle", "Final Hurdle: the target is reached only with a smallest-range award"),
    ("nail_it", "Nail It: an exact range (size 0) scores 5"),
    ("fast_play", "Fast Play: ranges must be in within the time limit"),
    ("top_two", "Top Two: the next smallest size scores 1"),
    ("minus_points", "Minus Points: a wrong range scores -1"),
    ("two_players", "Two Players: exactly two players"),
)

GAMES: dict[str, Game] = {
    g.id: g
    for g in (
        Game("confident", "Confident?", "estimation", 2, 8,
             "Everyone enters a range; the narrowest correct range scores most.",
             (Option("target", "Points to win", "int", 15, 1, 10_000),
              *(Option(f"variant:{v}", label, "check") for v, label in CONFIDENT_VARIANTS),
              Option("fast_play_seconds", "Fast Play time limit (seconds)", "int", 10, 1, 600))),
        Game("poker", "Estimation poker", "estimation", 2, 8,
             "Ranges are secret hands; bet through four rounds of hints.",
             (Option("stack", "Starting chips", "int", 1000, 1, 1_000_000),
              Option("ante", "Starting ante", "int", 10, 1, 1_000_000),
              Option("ante_unit", "The ante doubles every", "choice", "minutes",
                     choices=(("minutes", "N minutes"), ("questions", "N questions"))),
              Option("ante_every", "N", "int", 20, 1, 1000),
              Option("first", "First to act", "player"))),
        Game("allin", "All In", "allin", 2, 12,
             "The reader answers a statement in secret; the others split all their chips.",
             (Option("chips", "Chips each", "int", 15, 1, 1000),
              Option("max_players", "Most players", "int", 6, 2, 12))),
        Game("squizz", "sQuizz", "squizz", 2, 8,
             "Pick A, B or C and bet a token; teams of two above 8 people.",
             (Option("first_reader", "First reader", "player"),)),
    )
}


def games(extra: Mapping[str, str]) -> dict[str, Game]:
    """The four games plus any registered extra game (game id -> deck type) offered without options."""
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
        elif option.kind == "choice" and raw:
            if raw not in dict(option.choices):
                raise OptionProblem(f"{option.label}: choose one of the offered values")
            options[option.name] = raw
    if game.id == "confident":
        options["variants"] = variants
    if game.id == "poker":
        unit = options.pop("ante_unit", "minutes")
        every = options.pop("ante_every", None)
        if every is not None:
            options["ante_every"] = {unit: every}
    return options
