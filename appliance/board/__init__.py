"""The TV board: renders the public board state (Session.board_state) as game-show frames.

* :func:`render` ``(state, size, now=0.0) -> pygame.Surface``: pure, state in, frame out;
* :func:`render_png`: the same frame as PNG bytes (the admin page's picture of the TV);
* :func:`moment`: the scene's moment and how long its animation runs (the settled frame is at its end);
* :class:`Board`: the display loop (kmsdrm on the Pi, a desktop window, or headless), redrawing only
  when the state changes or an animation runs, with the last frame as PNG for the admin page.
"""

from __future__ import annotations

from appliance.board.compose import compose, moment, render, render_png
from appliance.board.display import Board
from appliance.board.glyphs import undrawable
from appliance.board.pictures import use as use_media

__all__ = ["Board", "compose", "moment", "render", "render_png", "undrawable", "use_media"]
