"""Lobby / attract screen: the box's name, how to join, and every handset with its health.

How to join comes from ``join`` ({"url", "address"}) in the state or in the view; without it the
screen says to pick up a handset. Each accepted handset shows its name on its colour, battery and
signal; an offline handset is marked with a cross and the word "offline" (not by colour alone).
"""

from __future__ import annotations

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.qr import draw_qr
from appliance.board.scenes.common import beside_badge, columns, footer, header, room_grid, stack_top, texts_fit
from appliance.board.state import Board, Player, as_map, as_text

LOW_BATTERY = 20
"""Percent at or below which the battery is drawn in the warning colour with a warning word."""


def signal_bars(rssi: int | None) -> int | None:
    """0-4 bars from a Wi-Fi RSSI in dBm; None when the handset reports none (a phone)."""
    if rssi is None:
        return None
    for bars, floor in ((4, -55), (3, -65), (2, -75), (1, -85)):
        if rssi >= floor:
            return bars
    return 0


def join_info(board: Board) -> tuple[str, str]:
    join = as_map(board.raw.get("join")) or as_map(board.view.get("join"))
    return as_text(join.get("url")), as_text(join.get("address"))


def draw(canvas: Canvas, board: Board) -> None:
    area = header(canvas, board.box, "Pub quiz tonight: grab a handset or join with your phone")
    area = footer(canvas, board, area)
    left, right = columns(area, 2, canvas.u(40))
    left.width = round(area.width * (0.36 if len(board.players) <= 7 else 0.26))
    right.left = left.right + canvas.u(40)
    right.width = area.right - right.left
    _join_panel(canvas, board, left)
    _handsets(canvas, board, right)


def _join_panel(canvas: Canvas, board: Board, box: Rect) -> None:
    canvas.panel(box)
    inner = box.inflate(-canvas.u(40), -canvas.u(40))
    url, address = join_info(board)
    title = Rect(inner.left, inner.top, inner.width, canvas.u(64))
    canvas.text(title, "How to join", 52, theme.GOLD, role="title", max_lines=1)
    rest = Rect(inner.left, title.bottom + canvas.u(12), inner.width, inner.bottom - title.bottom - canvas.u(12))
    if url:
        text_height = canvas.u(150)
        qr_box = Rect(rest.left, rest.top, rest.width, rest.height - text_height)
        draw_qr(canvas.surface, url, qr_box)
        lines = f"Scan with your phone or open\n{address or url}"
        canvas.text(Rect(rest.left, qr_box.bottom + canvas.u(8), rest.width, text_height - canvas.u(8)),
                    lines, 36, theme.TEXT)
    else:
        canvas.text(rest, "Pick up a handset and switch it on: it joins by itself.", 44, theme.TEXT)


def _handsets(canvas: Canvas, board: Board, box: Rect) -> None:
    canvas.panel(box)
    inner = box.inflate(-canvas.u(32), -canvas.u(32))
    online = sum(1 for p in board.players if p.online)
    title = Rect(inner.left, inner.top, inner.width, canvas.u(64))
    count = f"{online} handset{'s' if online != 1 else ''} ready" if board.players else "Handsets"
    canvas.text(title, count, 52, theme.GOLD, role="title", max_lines=1)
    rest = Rect(inner.left, title.bottom + canvas.u(12), inner.width, inner.bottom - title.bottom - canvas.u(12))
    if not board.players:
        canvas.text(rest, "Waiting for the first handset…", 44, theme.MUTED)
        return
    players = board.players
    if len(players) > 7:
        _room(canvas, board, rest, players)
        return
    cols = 1 if len(players) <= 7 else 2
    per_column = -(-len(players) // cols)
    for index, column in enumerate(columns(rest, cols, canvas.u(24))):
        chunk = players[index * per_column:(index + 1) * per_column]
        for player, row in zip(chunk, stack_top(column, len(chunk), canvas.u(84), canvas.u(12)), strict=True):
            _handset_row(canvas, player, row, board.seat_number(player.name))


def _room(canvas: Canvas, board: Board, area: Rect, players: list[Player]) -> None:
    """A room's handsets: seat number and name (the number alone where not every name fits), an offline
    handset dimmed with a cross, a low battery with its percentage in the warning colour."""
    cells = room_grid(canvas, area, len(players), canvas.u(10), 2, min_width=300, down=True)
    mark = cells[0].height + canvas.u(8) if cells else 0
    pill = Rect(0, 0, cells[0].width - mark, cells[0].height) if cells else Rect(0, 0, 0, 0)
    names = texts_fit(canvas, beside_badge(canvas, pill), [p.name for p in players], 40)
    for player, cell in zip(players, cells, strict=True):
        box = Rect(cell.left, cell.top, cell.width - mark, cell.height)
        canvas.pill(box, player.colour, player.name if names else "", 40, dim=not player.online,
                    seat=board.seat_number(player.name))
        centre = (cell.right - cell.height // 2, cell.centery)
        if not player.online:
            canvas.cross(centre, cell.height * 2 // 5, theme.WRONG)
        elif player.battery is not None and player.battery <= LOW_BATTERY:
            pygame.draw.circle(canvas.surface, theme.WARNING, centre, cell.height * 2 // 5)
            canvas.text(Rect(0, 0, cell.height, cell.height).move(centre[0] - cell.height // 2, cell.top), "!", 40,
                        theme.BACKGROUND, role="title", max_lines=1)


def _handset_row(canvas: Canvas, player: Player, row: Rect, seat: int | None = None) -> None:
    gauges = canvas.u(230)
    pill = Rect(row.left, row.top, row.width - gauges - canvas.u(12), row.height)
    canvas.pill(pill, player.colour, player.name, 40, dim=not player.online, seat=seat)
    gauge = Rect(pill.right + canvas.u(12), row.top, gauges, row.height)
    if not player.online:
        radius = min(gauge.height * 2 // 5, canvas.u(28))
        canvas.cross((gauge.left + radius, gauge.centery), radius, theme.WRONG)
        canvas.text(Rect(gauge.left + 2 * radius + canvas.u(8), gauge.top, gauge.width - 2 * radius - canvas.u(8),
                         gauge.height), "offline", 34, theme.WARNING, role="title", align="left", max_lines=1)
        return
    bars = signal_bars(player.rssi)
    signal = Rect(gauge.left, gauge.top, canvas.u(56), gauge.height)
    if bars is not None:
        _draw_signal(canvas, signal, bars)
    battery = Rect(signal.right + canvas.u(12), gauge.top, gauge.right - signal.right - canvas.u(12), gauge.height)
    if player.battery is not None:
        _draw_battery(canvas, battery, player.battery)


def _draw_signal(canvas: Canvas, box: Rect, bars: int) -> None:
    width = box.width // 5
    base = box.centery + canvas.u(22)
    for i in range(4):
        height = canvas.u(12 + 10 * i)
        bar = Rect(box.left + i * (width + canvas.u(3)), base - height, width, height)
        colour = theme.TEXT if i < bars else theme.PANEL_EDGE
        pygame.draw.rect(canvas.surface, colour, bar, border_radius=canvas.u(2))


def _draw_battery(canvas: Canvas, box: Rect, percent: int) -> None:
    percent = max(0, min(100, percent))
    low = percent <= LOW_BATTERY
    colour = theme.WARNING if low else theme.TEXT
    shell = Rect(box.left, box.centery - canvas.u(16), canvas.u(56), canvas.u(32))
    pygame.draw.rect(canvas.surface, colour, shell, width=canvas.u(3), border_radius=canvas.u(4))
    nub = Rect(shell.right, shell.centery - canvas.u(7), canvas.u(5), canvas.u(14))
    pygame.draw.rect(canvas.surface, colour, nub)
    level = shell.inflate(-canvas.u(10), -canvas.u(10))
    level.width = max(1, round(level.width * percent / 100))
    pygame.draw.rect(canvas.surface, colour, level)
    label = Rect(shell.right + canvas.u(12), box.top, box.right - shell.right - canvas.u(12), box.height)
    canvas.text(label, f"{percent}%" + ("!" if low else ""), 34, colour, role="title", align="left", max_lines=1)
