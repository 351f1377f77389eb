"""The TV in a browser: ``/tv`` fills a projector's or a second screen's browser with the board.

It draws the same retained board state as the HDMI board, with the same renderer
(:func:`web.mirror.board_png`, the settled frame of each scene), at 1280x720; the page swaps the picture
when the board changes (``/tv/version`` is a short poll). The board state is the public one (no
secret is ever in it: the TV in the room shows the same), so ``/tv`` needs no login, like the phone
pages; it is served where the admin page is, on the pub's LAN (docs/quizmaster.md).
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from web.live import join_info
from web.mirror import board_png
from web.services import services

bp = Blueprint("tv", __name__, url_prefix="/tv")

SIZE = (1280, 720)


@bp.get("")
def page() -> str:
    return render_template("tv.html", version=services().link.version())


@bp.get("/version")
def version() -> Response:
    response = Response(str(services().link.version()), mimetype="text/plain")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/board.png")
def board() -> Response:
    state = services().link.board()
    response = Response(board_png({**(state or {}), "join": join_info()}, SIZE), mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response
