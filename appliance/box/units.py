"""The systemd units the installer installs on a box, and the one sentence said when one is not running:
by the installer at its end (``python3 -B appliance/box/units.py <state> <unit>...``, the system's Python
before the box's own is there: this file imports nothing of Quizbox) and by ``quizbox doctor`` (its
*Services* check). One cause, one verdict, in the same words (issue 38)."""

from __future__ import annotations

import sys

# unit (without .service; another kind with its suffix), what it is, what the box is without it
UNITS: tuple[tuple[str, str, str], ...] = (
    ("quizbox-limits", "the per-address connection limits (quizbox-limits)",
     "the game plays, but one guest on the Wi-Fi can hold every connection to the broker and the admin page "
     "(docs/security.md)"),
    ("mosquitto", "the broker (mosquitto)", "no handset and no admin page can reach the quiz program"),
    ("quizbox", "the quiz program (quizbox)", "no game can be played"),
    ("quizbox-web", "the admin page (quizbox-web)", "the quizmaster has no admin page and phones cannot play"),
    # a path unit: it starts the root oneshot quizbox-league-join.service when the admin page asks a join
    ("quizbox-league-join.path", "the admin page's league join (quizbox-league-join.path)",
     "the admin page's \"Join a league\" form waits for ever; sudo quizbox league join still works (docs/league.md)"),
)
NAMES = {unit: (what, without) for unit, what, without in UNITS}


def down(unit: str, state: str) -> str:
    """The sentence for ``unit`` (with or without ``.service``) found ``state`` instead of running."""
    name = unit.removesuffix(".service")
    what, without = NAMES.get(name, (name, ""))
    return f"Not running (systemd says {state}): {what}" + (f"; {without}." if without else ".")


def see_why(unit: str) -> str:
    name = unit if "." in unit else f"{unit}.service"
    return f"See why: sudo journalctl -b -u {name} | tail -n 30"


def main(argv: list[str]) -> int:
    """``units.py <state> <unit>...``: the installer's verdict, one line a unit."""
    if len(argv) < 2:
        print("usage: units.py <state> <unit>...", file=sys.stderr)
        return 2
    state, units = argv[0], argv[1:]
    for unit in units:
        print(f"FAILED: {down(unit, state)} {see_why(unit)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
