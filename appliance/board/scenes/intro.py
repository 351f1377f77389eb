"""Game intro: the game's name, a short rules summary, the active variants and who is playing."""

from __future__ import annotations

from collections.abc import Mapping

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes.common import footer, game_title, header, player_pills
from appliance.board.state import Board, as_list, as_map, as_text
from appliance.games import registry

RULES: Mapping[str, tuple[str, ...]] = {spec.id: spec.intro for spec in registry.SPECS}
"""Each game's rules summary, from its registry entry."""

VARIANTS = {
    "final_hurdle": "Final Hurdle",
    "nail_it": "Nail It",
    "fast_play": "Fast Play",
    "top_two": "Top Two",
    "minus_points": "Minus Points",
    "two_players": "Two Players",
}


def variant_names(board: Board) -> list[str]:
    """The active variants, from ``view.variants`` or ``view.options.variants``, in the game's words."""
    listed = as_list(board.view.get("variants")) or as_list(as_map(board.view.get("options")).get("variants"))
    return [VARIANTS.get(as_text(v), as_text(v).replace("_", " ").title()) for v in listed if as_text(v)]


def draw(canvas: Canvas, board: Board) -> None:
    area = header(canvas, game_title(board.game), "Get ready!")
    area = footer(canvas, board, area)
    gap = canvas.u(24)
    variants = variant_names(board)
    rules_box = Rect(area.left, area.top, area.width, round(area.height * 0.62))
    canvas.panel(rules_box)
    inner = rules_box.inflate(-canvas.u(48), -canvas.u(36))
    lines = RULES.get(board.game or "", ("Follow the quizmaster.",))
    text = "\n".join(f"• {line}" for line in lines)
    canvas.text(inner, text, 46, theme.TEXT, align="left")
    below = Rect(area.left, rules_box.bottom + gap, area.width, area.bottom - rules_box.bottom - gap)
    if variants:
        strip = Rect(below.left, below.top, below.width, canvas.u(56))
        canvas.text(strip, "Variants: " + ", ".join(variants), 40, theme.GOLD, role="title")
        below = Rect(below.left, strip.bottom + canvas.u(12), below.width, below.bottom - strip.bottom - canvas.u(12))
    player_pills(canvas, board, below, board.in_game(), max_columns=4)
