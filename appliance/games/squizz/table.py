"""The sQuizz setup table (seed 004, "Setup") and the team rule for more than 8 people.

| players | 2   | 3   | 4   | 5   | 6   | 7   | 8   |
| tokens  | 1-6 | 1-6 | 1-6 | 1-8 | 1-5 | 1-6 | 1-7 |
| reads   | 6   | 3   | 2   | 2   | 1   | 1   | 1   |

Each player is a non-reader ``(players - 1) * reads`` times, exactly the number of their tokens, so
every non-reader answers every question and uses every token once (rules.md sQuizz 1).

The room form (docs/rules.md squizz-room) has no table: nobody reads, every player holds tokens 1 to K (the
option ``tokens``) and the game has exactly K cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from appliance.errors import ConfigError

MIN_PLAYERS = 2
MAX_PLAYERS = 8
"""The most players of the rulebook's form, with readers."""
ROOM_MAX_PLAYERS = 40
"""The most players of the room form (docs/rules.md squizz-room): the appliance seats a room of 40."""

ROOM_TOKENS = 6
"""The room form's default ``tokens``: each player holds bet tokens 1 to this, and the game has this many cards."""
ROOM_TOKENS_LOW, ROOM_TOKENS_HIGH = 2, 12
"""The range of the room form's ``tokens`` option."""

TOKENS: dict[int, int] = {2: 6, 3: 6, 4: 6, 5: 8, 6: 5, 7: 6, 8: 7}
"""Players -> highest bet token: each player holds tokens 1 to this."""

READS: dict[int, int] = {2: 6, 3: 3, 4: 2, 5: 2, 6: 1, 7: 1, 8: 1}
"""Players -> how many times each player is the reader."""


def tokens_for(players: int) -> tuple[int, ...]:
    """The bet tokens each of ``players`` players starts with."""
    return tuple(range(1, TOKENS[players] + 1))


def questions_for(players: int) -> int:
    """Questions in a game of ``players`` players: each reads :data:`READS` times."""
    return players * READS[players]


def form_teams(people: Sequence[str]) -> list[tuple[str, ...]]:
    """Seat ``people`` (names in seat order) as sQuizz players (rules.md sQuizz 1).

    Up to 8 people each play alone. With more than 8, they form teams of two in seat order (the
    first two, the next two, ...); with an odd number the last team takes the last three people.
    That seats 9 to 17 people as 4 to 8 teams; 18 or more would need more than 8 teams of two, which
    the table does not cover, so they are refused with :class:`ConfigError`.
    """
    names = list(people)
    if len(names) < MIN_PLAYERS:
        raise ConfigError(f"sQuizz needs at least {MIN_PLAYERS} people, got {len(names)}")
    if len(names) <= MAX_PLAYERS:
        return [(name,) for name in names]
    teams = [tuple(names[i : i + 2]) for i in range(0, len(names) - len(names) % 2, 2)]
    if len(names) % 2:
        teams[-1] = (*teams[-1], names[-1])
    if len(teams) > MAX_PLAYERS:
        raise ConfigError(
            f"{len(names)} people make {len(teams)} teams of two; sQuizz seats at most {MAX_PLAYERS} teams "
            f"({2 * MAX_PLAYERS + 1} people)"
        )
    return teams


def team_name(team: Sequence[str]) -> str:
    """The seat name of a team: its members joined by `` & `` (a lone player keeps their name)."""
    return " & ".join(team)


READERS_AUTO, READERS_YES, READERS_NO = "auto", "yes", "no"
"""The set-up page's choices for ``readers``: as the seats say (a reader up to 8 players, the room form
above), readers (2-8 players), the room form."""


def setup_options(readers: str, tokens: int | None, seats: int) -> dict[str, object]:
    """The engine options from the set-up page's two fields (docs/rules.md squizz-room): ``readers`` one of the
    choices above, ``tokens`` as typed (None when blank). The page shows ``tokens`` at its default whatever the
    form, so the default is dropped where it does not belong (with readers); another value there is a
    :class:`ConfigError` naming the choice to make."""
    options: dict[str, object] = {}
    if readers == READERS_YES:
        options["readers"] = True
    elif readers == READERS_NO:
        options["readers"] = False
    elif readers != READERS_AUTO:
        raise ConfigError(f"readers is one of {READERS_AUTO}, {READERS_YES} or {READERS_NO}, got {readers!r}")
    room = readers == READERS_NO or (readers == READERS_AUTO and seats > MAX_PLAYERS)
    if tokens is not None and (room or tokens != ROOM_TOKENS):
        if not room:
            raise ConfigError("the number of bet tokens is set only when the box reads every card (the room "
                              f"form); with readers the tokens follow the player count ({seats} players)")
        options["tokens"] = tokens
    return options
