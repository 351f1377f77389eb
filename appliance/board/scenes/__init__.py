"""One module per scene; each has ``draw(canvas, board)`` and, if it animates, ``animation(board) -> s``."""
