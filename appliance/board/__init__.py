"""The TV board: renders the public board state (Session.board_state) as game-show frames.

* :func:`render` ``(state, size, now=0.0) -> pygame.Surface``: pure, state in, frame out;
* :func:`render_png`: the same frame as PNG bytes (the admin page's picture of the TV);
* :class:`Board`: the display loop (kmsdrm on the Pi, a desktop window, or headless), redrawing only
  when the state changes or an animation runs, with the last frame as PNG for the admin page.
"""

from __future__ import annotations

from appliance.board.compose import compose, render, render_png
from appliance.board.display import Board

__all__ = ["Board", "compose", "render", "render_png"]
