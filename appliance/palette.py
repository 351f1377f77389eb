"""The players' colours. A handset's LED and its player's pills on the TV are the same colour, so the MQTT
edge (which gives each handset its colour) and the board (which draws it) both read this one list.

A colour-blind-safe palette (Okabe-Ito plus white), one colour per seat.
"""

from __future__ import annotations

PALETTE: tuple[str, ...] = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#FFFFFF")
