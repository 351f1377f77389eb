"""The games this box plays: one :class:`GameSpec` per game, and every per-game table derives from them.

A spec is pure (it names the engine class, the scenario adapter and the words the board and the web show;
nothing here imports MQTT, pygame or Flask), so every layer can read it: the session's flows
(:mod:`appliance.flows`, which add each game's table-side flow), the board (which draws the scene named by
:attr:`GameSpec.scene`), the web's set-up page and standings, ``quizbox replay``, the decks.

Adding a game: its engine package ``appliance/games/<id>/`` (engine, and optionally ``scenario.py`` and
``standing.py``), its flow in ``appliance/flows/<id>.py`` paired with the spec in
:data:`appliance.flows.TABLE`, its board scene ``appliance/board/scenes/<id>.py`` listed in
:data:`appliance.board.compose.SCENES`, and one entry in :data:`SPECS` below. tests/test_registry.py
checks that every derived table covers exactly these games. What the game gets without asking: seat
numbers in every view and a player named by seat number (:meth:`Engine.player_at`, rules.md The room 2);
its refusals answered with the code each of its exceptions carries (``code`` on the class, appliance/errors.py:
nothing to register in the edge); the session, the store, resume and the admin commands as they are. What
it must say: its seat limits (``min_players``/``max_players``: a room is up to 40, rules.md The room 1) and a
prompt that fits a handset's 1 KB at its largest seat count (tests/session/test_room_forty.py plays every
game at 40).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from appliance.errors import MalformedInput
from appliance.games import standings
from appliance.games.allin import scenario as allin_scenario
from appliance.games.allin import standing as allin_standing
from appliance.games.allin.engine import AllInEngine
from appliance.games.base import Engine
from appliance.games.buzzer import scenario as buzzer_scenario
from appliance.games.buzzer import standing as buzzer_standing
from appliance.games.buzzer.engine import MAX_POINTS as BUZZER_POINTS
from appliance.games.buzzer.engine import BuzzerEngine
from appliance.games.confident import scenario as confident_scenario
from appliance.games.confident import standing as confident_standing
from appliance.games.confident.engine import ConfidentEngine
from appliance.games.confident.options import MAX_FAST_PLAY_SECONDS
from appliance.games.poker import scenario as poker_scenario
from appliance.games.poker import standing as poker_standing
from appliance.games.poker.engine import PokerEngine
from appliance.games.poker.room import RoomPokerEngine
from appliance.games.scenario import ScenarioAdapter
from appliance.games.squizz import scenario as squizz_scenario
from appliance.games.squizz import standing as squizz_standing
from appliance.games.squizz.engine import SquizzEngine
from appliance.games.squizz.table import (
    READERS_AUTO,
    READERS_NO,
    READERS_YES,
    ROOM_TOKENS,
    ROOM_TOKENS_HIGH,
    ROOM_TOKENS_LOW,
)


@dataclass(frozen=True)
class Setting:
    """One option the set-up page offers. ``name`` is the engine's option (``variant:x`` is one variant
    of a list option ``variants``); the default is the engine's own (:attr:`Engine.defaults`)."""

    name: str
    label: str
    kind: str  # "int", "check" (one variant of a list), "flag" (true/false), "player", "choice"
    default: Any = None
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """Everything the box needs to know about one game besides its engine's rules."""

    id: str
    title: str
    """The game's name on the board, the set-up page and the results."""
    engine: type[Engine]
    deck: str
    """The deck type it deals (appliance.decks.model.DECK_TYPES)."""
    blurb: str
    """One line for the set-up page."""
    intro: tuple[str, ...]
    """The rules in a few lines for the board's intro screen."""
    standing: standings.Reader
    """How its public view reads as a standing (points, whose move, the host's next)."""
    adapter: ScenarioAdapter | None = None
    """Its ``quizbox replay`` adapter; None when the game has no scenario format yet."""
    question_keys: tuple[str, ...] = ()
    """Scenario question keys the game adds to the common ones (sQuizz's ``die``)."""
    settings: tuple[Setting, ...] = ()
    scene: str = ""
    """The board scene module (``appliance.board.scenes.<scene>``); the game's id when empty."""
    cues: Mapping[str, str] = field(default_factory=dict)
    """Board scene moments (without the ``<id>-`` prefix) -> sound cue, besides the common ones."""
    flow_options: tuple[str, ...] = ("answer_seconds",)
    """Options the game's flow takes for itself, not its engine: the session's timing in whole seconds
    (0 = no limit) and the buzzer's questions and settle time. A night's round may set them too; the
    flow checks their range when the round starts (appliance/flows)."""

    def __post_init__(self) -> None:
        if self.engine.game != self.id:
            raise ValueError(f"spec {self.id!r} names the {self.engine.game!r} engine")
        if not self.scene:
            object.__setattr__(self, "scene", self.id)

    @property
    def min_players(self) -> int:
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        return self.engine.max_players

    @property
    def defaults(self) -> Mapping[str, Any]:
        return self.engine.defaults


def _confident_settings() -> tuple[Setting, ...]:
    defaults = ConfidentEngine.defaults
    variants = (
        ("final_hurdle", "Final Hurdle: the target is reached only with a smallest-range award"),
        ("nail_it", "Nail It: an exact range (size 0) scores 5"),
        ("fast_play", "Fast Play: ranges must be in within the time limit"),
        ("top_two", "Top Two: the next smallest size scores 1"),
        ("minus_points", "Minus Points: a wrong range scores -1"),
        ("two_players", "Two Players: exactly two players"),
    )
    return (
        Setting("target", "Points to win", "int", defaults["target"], 1, 10_000),
        *(Setting(f"variant:{name}", label, "check") for name, label in variants),
        Setting("fast_play_seconds", "Fast Play time limit (seconds)", "int", defaults["fast_play_seconds"], 1,
                MAX_FAST_PLAY_SECONDS),
    )


def _poker_settings() -> tuple[Setting, ...]:
    defaults = PokerEngine.defaults
    ((unit, every),) = defaults["ante_every"].items()
    return (
        Setting("stack", "Starting chips", "int", defaults["stack"], 1, 1_000_000),
        Setting("ante", "Starting ante", "int", defaults["ante"], 1, 1_000_000),
        Setting("ante_unit", "The ante doubles every", "choice", unit,
                choices=(("minutes", "N minutes"), ("questions", "N questions"))),
        Setting("ante_every", "N", "int", every, 1, 1000),
        Setting("first", "First to act", "player"),
    )


def _squizz_settings() -> tuple[Setting, ...]:
    """``readers`` and ``tokens`` (docs/rules.md squizz-room) as the page's choice and number; the web turns
    them into the engine's options with :func:`appliance.games.squizz.table.setup_options`."""
    return (
        Setting("readers", "Who reads the cards", "choice", READERS_AUTO,
                choices=((READERS_AUTO, "A player up to 8 players, the box above"),
                         (READERS_YES, "A player reads (2 to 8 players)"),
                         (READERS_NO, "The box reads every card (the room form)"))),
        Setting("tokens", "Bet tokens each, and cards (when the box reads)", "int", ROOM_TOKENS, ROOM_TOKENS_LOW,
                ROOM_TOKENS_HIGH),
        Setting("first_reader", "First reader (when a player reads)", "player"),
    )


SPECS: tuple[GameSpec, ...] = (
    GameSpec(
        "confident", "Confident?", ConfidentEngine, "estimation",
        "Everyone enters a range; the narrowest correct range scores most.",
        ("Give a range you are sure holds the answer.",
         "Right and narrowest scores 3; any other right range scores 1.",
         "Copy, Swap and Double: each once per game.",
         "First to the target wins."),
        confident_standing.read, confident_scenario.ADAPTER, settings=_confident_settings(),
    ),
    GameSpec(
        "poker", "Estimation Poker", RoomPokerEngine, "estimation",
        "Ranges are secret hands; bet through four rounds of hints.",
        ("Enter a secret range, then bet on it like poker.",
         "Two hints and the answer come between betting rounds.",
         "Showdown: a range holding the answer beats one that does not; narrower wins.",
         "The ante rises as the night goes on. Last one with chips wins."),
        poker_standing.read, poker_scenario.ADAPTER, settings=_poker_settings(), cues={"ranges": "question"},
        flow_options=("answer_seconds", "action_seconds"),
    ),
    GameSpec(
        "allin", "All In", AllInEngine, "allin",
        "The reader answers a statement in secret; the others split all their chips.",
        ("The reader picks one of three statements about themselves and answers it in secret.",
         "Everyone else splits ALL their chips between True and False.",
         "Chips on the wrong side leave the game.",
         "Last player with chips wins."),
        allin_standing.read, allin_scenario.ADAPTER,
        settings=(Setting("chips", "Chips each", "int", AllInEngine.defaults["chips"], 1, 1000),),
    ),
    GameSpec(
        "squizz", "sQuizz", SquizzEngine, "squizz",
        "Pick A, B or C and bet a token; above 8 teams the box reads every card.",
        ("The die says: find the smallest, the middle or the largest.",
         "Pick A, B or C and bet one of your tokens on it.",
         "A right answer keeps its token's points, face down until the end.",
         "Most points wins."),
        squizz_standing.read, squizz_scenario.ADAPTER, question_keys=("die",),
        settings=_squizz_settings(),
        cues={"final": "fanfare", "roll": "roll", "question": "roll"},
    ),
    GameSpec(
        "buzzer", "Buzzer Round", BuzzerEngine, "buzzer",
        "The quizmaster reads a question; the first buzz answers.",
        ("Wait for the quizmaster to arm the buzzers.",
         "Buzz too early and you are locked out of that question.",
         "First buzz answers; a wrong answer passes to the next."),
        buzzer_standing.read, buzzer_scenario.ADAPTER,
        settings=(Setting("lockout", "Early buzzes lock a player out", "flag", BuzzerEngine.defaults["lockout"]),
                  Setting("points_right", "Points for a right answer", "int", BuzzerEngine.defaults["points_right"],
                          -BUZZER_POINTS, BUZZER_POINTS),
                  Setting("points_wrong", "Points for a wrong answer", "int", BuzzerEngine.defaults["points_wrong"],
                          -BUZZER_POINTS, BUZZER_POINTS)),
        cues={"armed": "question"}, flow_options=("answer_seconds", "settle_ms", "questions"),
    ),
)

GAMES: Mapping[str, GameSpec] = {spec.id: spec for spec in SPECS}
"""Game id -> spec, in the order the set-up page offers them."""

IDS: tuple[str, ...] = tuple(GAMES)


def spec(game: str) -> GameSpec:
    """The spec of ``game``; MalformedInput naming the known games otherwise."""
    found = GAMES.get(game)
    if found is None:
        raise MalformedInput(f"unknown game {game!r}; expected one of {', '.join(IDS)}")
    return found


def title(game: str | None) -> str:
    """The game's name; a game not in the registry (a test game) is shown by its id."""
    known = GAMES.get(game or "")
    return known.title if known is not None else (game or "Quizbox").title()


def read_standing(game: str | None, view: Mapping[str, Any] | None, players: Sequence[str] = ()) -> standings.Standing:
    """The standing of ``game`` from its public ``view`` (players in seat order for the table)."""
    if not isinstance(view, Mapping):
        return standings.Standing()
    seats = list(players) or standings.names(view.get("players"))
    known = GAMES.get(str(view.get("game") or game))
    reader = known.standing if known is not None else standings.generic
    standing = reader(view, seats)
    return standings.final(standing) if view.get("finished") is True else standing
