"""sQuizz (rules.md sQuizz): the die roll (animated), the three propositions, who has answered (never
which token), the reveal of the correct answer; the final score reveal is in :mod:`results`. A card with a
picture (issue 34) shows it at the left of the three propositions while the question is open.

Reads appliance/games/squizz/views.py public_view: before a reveal it holds the card's labels and who
has locked in, never an answer or a value; after it the answers, values and who was correct.
"""

from __future__ import annotations

import pygame

from appliance.board import theme
from appliance.board.canvas import Canvas, Rect
from appliance.board.scenes import intro
from appliance.board.scenes.common import columns, footer, header, pills_height, player_pills
from appliance.board.scenes.select import Choice
from appliance.board.state import Board, as_int, as_list, as_map, as_text, show_number

ROLL_SECONDS = 1.6
LETTERS = ("A", "B", "C")
PIPS = {1: ((0.5, 0.5),), 2: ((0.28, 0.28), (0.72, 0.72)), 3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75))}


def choose(board: Board) -> Choice:
    q = as_map(board.view.get("question"))
    if not q:
        return Choice("squizz-intro", intro.draw, ("squizz", "intro"))
    number = as_int(q.get("number"), 0)
    if q.get("revealed") is True:
        return Choice("squizz-reveal", draw_reveal, ("squizz", number, "reveal"))
    if not as_text(q.get("prompt")):
        return Choice("squizz-roll", draw_roll, ("squizz", number, "open"), ROLL_SECONDS, layered=True)
    return Choice("squizz-question", draw_question, ("squizz", number, "open"), ROLL_SECONDS, layered=True)


def die_face(final: int, t: float) -> int:
    """The face shown ``t`` seconds into the roll: tumbling through 1-3, then the rolled face."""
    if t >= ROLL_SECONDS:
        return final
    return int(t * 11) % 3 + 1


def draw_die(canvas: Canvas, box: Rect, final: int, t: float) -> None:
    side = min(box.width, box.height)
    rolling = t < ROLL_SECONDS
    bounce = round(abs(pygame.math.Vector2(0, 1).rotate(t * 720).y) * side * 0.12) if rolling else 0
    die = Rect(0, 0, side, side)
    die.center = (box.centerx, box.centery - bounce)
    pygame.draw.rect(canvas.surface, theme.TEXT, die, border_radius=side // 6)
    pygame.draw.rect(canvas.surface, theme.GOLD, die, width=max(2, side // 30), border_radius=side // 6)
    for fx, fy in PIPS.get(die_face(final, t), ()):
        pygame.draw.circle(canvas.surface, theme.BACKGROUND, (die.left + round(fx * side), die.top + round(fy * side)),
                           max(2, side // 10))


def _target_words(q: dict[str, object] | object) -> str:
    target = as_text(as_map(q).get("target"))
    return f"Find the {target.upper()}" if target else ""


def _reader_line(q: object) -> str:
    """Who reads: the reader's name, or in the room form (no reader, docs/rules.md squizz-room) the box."""
    reader = as_text(as_map(q).get("reader"))
    return f"Reader: {reader}" if reader else "The box reads · everyone answers"


def draw_roll(canvas: Canvas, board: Board) -> None:
    q = as_map(board.view.get("question"))
    area = header(canvas, f"sQuizz · Question {as_int(q.get('number'), 0)}", _reader_line(q))
    area = footer(canvas, board, area)
    die_box = Rect(0, 0, canvas.u(320), canvas.u(320))
    die_box.center = (area.centerx, area.top + round(area.height * 0.4))
    die = as_int(q.get("die"), 1) or 1

    def rolling(on: Canvas, _: Board) -> None:  # the die and, once it lands, the target: what moves
        draw_die(on, die_box, die, on.now)
        if on.now >= ROLL_SECONDS:
            words = Rect(area.left, die_box.bottom + on.u(40), area.width, on.u(120))
            on.text(words, _target_words(q), 96, theme.GOLD, role="title", max_lines=1)

    canvas.later(rolling, board)


def _proposition(canvas: Canvas, box: Rect, letter: str, label: str, value: str | None, state: str,
                 count: str = "") -> None:
    """One proposition card; ``state``: "" (open), "right", "wrong" (after the reveal); ``count``: how many
    chose it, beside its letter (the reveal's "29 of 40 right")."""
    fill = {"right": theme.mix(theme.RIGHT, theme.PANEL, 0.35), "wrong": theme.PANEL}.get(state, theme.PANEL)
    edge = theme.GOLD if state == "right" else theme.PANEL_EDGE
    canvas.panel(box, fill, edge, radius=20, width=6 if state == "right" else 3)
    inner = box.inflate(-canvas.u(28), -canvas.u(24))
    badge = Rect(inner.left, inner.top, canvas.u(96), canvas.u(96))
    pygame.draw.circle(canvas.surface, theme.GOLD, badge.center, badge.width // 2)
    canvas.text(badge, letter, 64, theme.BACKGROUND, role="title", max_lines=1)
    if state == "right":
        canvas.tick((inner.right - canvas.u(40), inner.top + canvas.u(40)), canvas.u(40), theme.RIGHT)
    if count:
        words = Rect(badge.right + canvas.u(12), inner.top, inner.width - 2 * badge.width - canvas.u(24), badge.height)
        canvas.text(words, count, 44, theme.GOLD if state == "right" else theme.MUTED, role="title", max_lines=2)
    value_height = canvas.u(90) if value is not None else 0
    label_box = Rect(inner.left, badge.bottom + canvas.u(16), inner.width,
                     inner.bottom - badge.bottom - canvas.u(16) - value_height)
    canvas.text(label_box, label, 52, theme.TEXT if state != "wrong" else theme.MUTED, role="title")
    if value is not None:
        canvas.text(Rect(inner.left, inner.bottom - value_height, inner.width, value_height), value, 60,
                    theme.GOLD if state == "right" else theme.MUTED, role="title", max_lines=1)


def _columns(players: int) -> int:
    """Pill columns: four for a table of 8, more for a room (docs/rules.md squizz-room) so the cards keep room."""
    return 4 if players <= 8 else 6 if players <= 24 else 8


def _layout(canvas: Canvas, board: Board, q: object) -> tuple[Rect, Rect, Rect]:
    """The prompt line (with the die at its left), the three cards, and the players' strip."""
    qm = as_map(q)
    area = header(canvas, f"sQuizz · Question {as_int(qm.get('number'), 0)}", _reader_line(qm))
    area = footer(canvas, board, area)
    prompt = Rect(area.left, area.top, area.width, canvas.u(150))
    count = len(board.in_game())
    players_height = pills_height(canvas, area.width, count, _columns(count), lines=3) + canvas.u(40)
    cards = Rect(area.left, prompt.bottom + canvas.u(20), area.width,
                 area.height - prompt.height - players_height - canvas.u(40))
    players = Rect(area.left, cards.bottom + canvas.u(20), area.width, area.bottom - cards.bottom - canvas.u(20))
    return prompt, cards, players


def _prompt_line(canvas: Canvas, board: Board, q: object, box: Rect, now: float | None = None) -> None:
    """The die and the prompt; ``now``: the die's clock (the canvas's unless given)."""
    qm = as_map(q)
    t = canvas.now if now is None else now
    die_box = Rect(box.left, box.top, box.height, box.height)
    draw_die(canvas, die_box.inflate(-canvas.u(20), -canvas.u(20)), as_int(qm.get("die"), 1) or 1, t)
    text_box = Rect(die_box.right + canvas.u(24), box.top, box.width - die_box.width - canvas.u(24), box.height)
    target = _target_words(qm) if t >= ROLL_SECONDS else "…"
    canvas.text(text_box, f"{as_text(qm.get('prompt'))}\n{target}", 56, theme.TEXT, role="title", align="left")


def _value(value: object, q: object) -> str:
    """A proposition's value as the board writes it; a year is a year ("1963", never "1,963")."""
    prompt = as_text(as_map(q).get("prompt")).strip().lower()
    if prompt.startswith(("year", "in which year", "what year")) and as_text(value).lstrip("-").isdigit():
        return as_text(value)
    return show_number(value)


def _texts(q: object) -> dict[str, str]:
    """The propositions' texts by letter (``texts``; ``labels`` in the first version of the view)."""
    qm = as_map(q)
    texts = as_map(qm.get("texts")) or as_map(qm.get("labels"))
    return {letter: as_text(texts.get(letter)) for letter in LETTERS}


def draw_question(canvas: Canvas, board: Board) -> None:
    q = as_map(board.view.get("question"))
    prompt, cards, players = _layout(canvas, board, q)
    canvas.later(lambda on, now: _prompt_line(on, now, q, prompt), board)  # the die rolls over a still layer
    if canvas.shows(board.image) and board.image:  # a picture question: the picture at the left of the cards
        picture = Rect(cards.left, cards.top, round(cards.width * 0.4), cards.height)
        canvas.image(picture, board.image)
        cards = Rect(picture.right + canvas.u(28), cards.top, cards.right - picture.right - canvas.u(28),
                     cards.height)
    labels = _texts(q)
    for letter, box in zip(LETTERS, columns(cards, 3, canvas.u(28)), strict=True):
        _proposition(canvas, box, letter, as_text(labels.get(letter)), None, "")
    reader = as_text(q.get("reader"))
    locked = {as_text(p) for p in as_list(q.get("locked_in"))}
    names = [n for n in board.in_game() if n != reader]
    player_pills(canvas, board, players, names, mark=lambda n: "lock" if n in locked else "",
                 dim=lambda n: board.offline(n), max_columns=_columns(len(board.in_game())))


def draw_reveal(canvas: Canvas, board: Board) -> None:
    q = as_map(board.view.get("question"))
    prompt, cards, players = _layout(canvas, board, q)
    # the reveal is a new moment with no animation of its own: the die was rolled at the question
    _prompt_line(canvas, board, q, prompt, now=ROLL_SECONDS)
    labels, values = _texts(q), as_map(q.get("values"))
    right = as_text(q.get("correct_answer"))
    answers = as_map(q.get("answers"))
    answering = len([n for n in board.in_game() if n != as_text(q.get("reader"))])
    for letter, box in zip(LETTERS, columns(cards, 3, canvas.u(28)), strict=True):
        value = values.get(letter)
        if letter == right:  # the view's own list of who was right
            count = f"{len(as_list(q.get('correct')))} of {answering} right"
        else:
            count = f"{sum(1 for a in answers.values() if as_text(a) == letter)} of {answering} chose {letter}"
        _proposition(canvas, box, letter, as_text(labels.get(letter)),
                     None if value is None else _value(value, q), "right" if letter == right else "wrong", count)
    correct = {as_text(p) for p in as_list(q.get("correct"))}
    names = [n for n in board.in_game() if n in answers]
    player_pills(canvas, board, players, names, mark=lambda n: "tick" if n in correct else "cross",
                 label=lambda n: f"{n}: {as_text(answers.get(n))}", max_columns=_columns(len(board.in_game())))
