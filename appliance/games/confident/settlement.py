"""Settling one Confident? question, as pure functions of the written boards.

Order (rules.md Confident 6): copies, then swaps, then scoring, then doubles; then the Final Hurdle cap
(rules.md Confident 8), the new totals and who crossed the target (rules.md Confident 7).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from appliance.games.confident.actions import Answer
from appliance.games.confident.options import Variant
from appliance.games.ranges import Range

SMALLEST_AWARD = 3
"""The correct range(s) with the smallest size (seed 000, "Win points")."""

NAIL_IT_AWARD = 5
"""Nail It: a correct range of size 0 (rules.md Confident 8)."""

OTHER_AWARD = 1
"""Other correct ranges; under Top Two only the next distinct size (rules.md Confident 2, 8)."""

MINUS_AWARD = -1
"""Minus Points: an incorrect range (rules.md Confident 8); no range is not incorrect (rule 4)."""


@dataclass(frozen=True)
class Settlement:
    """Everything the reveal shows for one question, in seat order."""

    answer: Decimal
    sources: dict[str, str | None]
    """Whose written range each player's board held after copies: themselves, the player at the end of
    their copy chain, or None (no board written, a copy cycle, or a chain to a player with no range)."""
    swap_groups: tuple[tuple[str, ...], ...]
    """Connected groups of swapped players, each in seat order (rules.md Confident 6)."""
    ranges: dict[str, Range | None]
    """Each player's range after copies and swaps (None: no range)."""
    sizes: dict[str, Decimal | None]
    correct: dict[str, bool]
    smallest: frozenset[str]
    """Players given the smallest-range award (3, or Nail It's 5): the only way over the Final Hurdle."""
    points: dict[str, int]
    """What the question added to each total: doubles and the Final Hurdle cap applied."""
    capped: frozenset[str]
    """Players the Final Hurdle held at target - 1."""
    scores: dict[str, int]
    crossed: tuple[str, ...]
    """Players at or above the target after this question, seat order."""
    winners: tuple[str, ...]
    """Rule 7 among ``crossed``: the only one, or those with the smallest size; empty if none crossed."""


def resolve_copies(
    players: Sequence[str], boards: Mapping[str, Answer]
) -> tuple[dict[str, Range | None], dict[str, str | None]]:
    """Each player's range after copies, and whose written range it is (rules.md Confident 6).

    Chains resolve transitively; everyone in a copy cycle, or whose chain leads into one, has no range;
    a chain ending at a player with no board gives no range. Copies take ranges as written."""
    ranges: dict[str, Range | None] = {}
    sources: dict[str, str | None] = {}
    for player in players:
        seen = [player]
        current = player
        source: str | None = None
        while True:
            board = boards.get(current)
            if board is None:
                break  # a chain to a player with no board, or no board at all
            if board.copy is None:
                source = current
                break
            if board.copy in seen:
                break  # a copy cycle, reached from inside it or from a chain leading into it
            current = board.copy
            seen.append(current)
        sources[player] = source
        ranges[player] = None if source is None else boards[source].range
    return ranges, sources


def swap_groups(players: Sequence[str], swaps: Sequence[tuple[str, str]]) -> tuple[tuple[str, ...], ...]:
    """The connected groups of the swap graph (an edge per swap), each in seat order, groups ordered by
    their first seat. Players nobody swapped are in no group."""
    seat = {player: index for index, player in enumerate(players)}
    group_of: dict[str, set[str]] = {}
    for first, second in swaps:
        merged = group_of.get(first, {first}) | group_of.get(second, {second})
        for member in merged:
            group_of[member] = merged
    groups = {tuple(sorted(group, key=seat.__getitem__)) for group in group_of.values()}
    return tuple(sorted(groups, key=lambda group: seat[group[0]]))


def pass_boards(ranges: Mapping[str, Range | None], groups: Sequence[Sequence[str]]) -> dict[str, Range | None]:
    """Boards after swaps: a pair exchanges once, however many swaps named it; in a group of three or
    more every board passes to the next member clockwise, the last to the first (rules.md Confident 6).
    An empty board (no range) moves like any other."""
    after = dict(ranges)
    for group in groups:
        for index, member in enumerate(group):
            after[group[(index + 1) % len(group)]] = ranges[member]
    return after


def award(
    players: Sequence[str],
    ranges: Mapping[str, Range | None],
    answer: Decimal,
    variants: Collection[Variant],
) -> tuple[dict[str, int], frozenset[str]]:
    """Points before doubles, and who got the smallest-range award (rules.md Confident 2, 3, 4, 8)."""
    # rules.md Confident 1: correct when bottom <= answer <= top; SIZE = top - bottom (appliance.games.ranges)
    sizes = {p: board.size for p in players if (board := ranges[p]) is not None and board.contains(answer)}
    points = {p: 0 for p in players}
    if Variant.MINUS_POINTS in variants:
        for player in players:
            if ranges[player] is not None and player not in sizes:
                points[player] = MINUS_AWARD  # incorrect; no range is not incorrect (rule 4)
    if not sizes:
        return points, frozenset()
    distinct = sorted(set(sizes.values()))
    smallest_size = distinct[0]
    top_award = NAIL_IT_AWARD if Variant.NAIL_IT in variants and smallest_size == 0 else SMALLEST_AWARD
    smallest = frozenset(p for p, s in sizes.items() if s == smallest_size)
    for player, board_size in sizes.items():
        if board_size == smallest_size:
            points[player] = top_award
        elif Variant.TWO_PLAYERS in variants:
            points[player] = 0  # only the smallest correct range scores
        elif Variant.TOP_TWO in variants:
            points[player] = OTHER_AWARD if board_size == distinct[1] else 0
        else:
            points[player] = OTHER_AWARD
    everyone_correct = len(sizes) == len(players)
    if everyone_correct and distinct[-1] > smallest_size:
        for player, board_size in sizes.items():
            if board_size == distinct[-1]:
                points[player] = 0  # rule 3: everyone correct, the biggest size scores 0
    return points, smallest


def winners_among(crossed: Sequence[str], sizes: Mapping[str, Decimal | None]) -> tuple[str, ...]:
    """Rule 7: one crosser wins; several: the smallest size on the question wins, equal sizes share.
    Totals are not compared. (A crosser always has a correct range: nothing else adds points.)"""
    if len(crossed) <= 1:
        return tuple(crossed)
    known = [s for p in crossed if (s := sizes[p]) is not None]
    if not known:
        return tuple(crossed)
    best = min(known)
    return tuple(p for p in crossed if sizes[p] == best)


def settle(
    players: Sequence[str],
    boards: Mapping[str, Answer],
    answer: Decimal,
    variants: Collection[Variant],
    target: int,
    scores_before: Mapping[str, int],
) -> Settlement:
    """Settle one question from the boards as written (players with no board have none)."""
    copied, sources = resolve_copies(players, boards)
    groups = swap_groups(players, [swap for p in players if p in boards and (swap := boards[p].swap)])
    ranges = pass_boards(copied, groups)
    base, smallest = award(players, ranges, answer, variants)
    points: dict[str, int] = {}
    capped: set[str] = set()
    for player in players:
        doubled = player in boards and boards[player].double
        gained = base[player] * 2 if doubled else base[player]  # doubles after scoring (rule 6)
        before = scores_before[player]
        if Variant.FINAL_HURDLE in variants and player not in smallest and before + gained >= target:
            gained = target - 1 - before  # rules.md Confident 8: Final Hurdle holds them at target - 1
            capped.add(player)
        points[player] = gained
    scores = {p: scores_before[p] + points[p] for p in players}
    sizes = {p: None if (held := ranges[p]) is None else held.size for p in players}
    crossed = tuple(p for p in players if scores[p] >= target)
    return Settlement(
        answer=answer,
        sources=sources,
        swap_groups=groups,
        ranges=ranges,
        sizes=sizes,
        correct={p: (held := ranges[p]) is not None and held.contains(answer) for p in players},
        smallest=smallest,
        points=points,
        capped=frozenset(capped),
        scores=scores,
        crossed=crossed,
        winners=winners_among(crossed, sizes),
    )
