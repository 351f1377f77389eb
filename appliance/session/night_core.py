"""The quiz night's core: what a :class:`~appliance.session.night.NightRunner` holds and how a night action
is applied and stored (the runner is split by meaning: this core, the screens in ``night_screen``, the
quizmaster's changes in ``night_room``, the restart in ``night_resume``, the rounds in ``night``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from appliance.errors import IllegalAction
from appliance.games.base import JSON, Action
from appliance.games.dealt import DealtCard
from appliance.games.night import NightEngine
from appliance.infra.store import Origin, Store, StoreError
from appliance.league.payloads import new_result_id, night_result

if TYPE_CHECKING:
    from appliance.session.session import Session

log = logging.getLogger(__name__)

CardSource = Callable[[str, Mapping[str, Any]], Sequence[DealtCard]]
"""(game, {"deck": id}) -> the cards to deal, as the hub's deck source gives them."""

MAX_INTERVAL_SECONDS = 3600

NEXT_GRACE_SECONDS = 4.0
"""After a round ends, the host's *next* waits this long before it starts the next round: the standing's
animation plays, and a *next* pressed twice for the round's last question cannot skip into the next
round (the night page's "Start the next round" is not held back)."""

MAX_HOLD_SECONDS = 600

CARDS, TIME, HOST_STOP = "cards", "time", "host"
"""Why a round stopped early (its stored game result's ``night.why``): its card count, its time box, the
quizmaster's finish now."""

ROUND, TIEBREAK = "round", "tiebreak"
"""What the board holds (:attr:`NightRunner.held`): a round's own final screen, the last tie-break card."""


class NightCore:
    def __init__(self, session: Session, store: Store | None = None, cards: CardSource | None = None) -> None:
        self.session = session
        self.store = store
        self.cards = cards
        self.engine: NightEngine | None = None
        self.night_id: int | None = None
        self.seats: dict[str, str] = {}
        """Player -> handset id for the whole night."""
        self.games: dict[int, int] = {}
        """Round number -> the game id that plays it."""
        self.round_started: float | None = None
        self.round_ended: float | None = None
        self.interval_until: float | None = None
        self.held: str | None = None
        """The final screen the board holds (rules.md Quiz night 6): ROUND, TIEBREAK or None. A screen, not
        a night action: the night's log (replay, persistence, undo) is the same with or without it."""
        self.held_at: float | None = None
        self.due_at: float | None = None
        """When the round in play became due (its last card revealed): a hold time counts from there."""
        self.colours: dict[str, str] = {}
        """Player -> their colour for the whole night: the colour of the handset they first sat at (a team's
        colour is the team's: a seat moved to another handset keeps it, issue 31.7)."""
        self.joining = False
        """Between rounds the TV shows the lobby's join QR code instead of the standing (latecomers)."""
        self.hold_seconds: int | None = None
        """The quizmaster's hold time for final screens (None: held until *next*)."""
        self._syncing = False
        self.box = ""
        """This box's id: a night started from a league plan needs it for its result (rules.md The league 5)."""
        self.league_plan: str | None = None
        """The league plan tonight plays, if any: its result goes to the league's outbox when it ends."""
        self.league_table: list[JSON] | None = None
        """The league's season table as the league last sent it: the TV shows it between rounds (read-only)."""

    # -- the night -----------------------------------------------------------------------------------

    @property
    def active(self) -> bool:
        return self.engine is not None

    def _engine(self) -> NightEngine:
        if self.engine is None:
            raise IllegalAction("no night is running")
        return self.engine

    def _apply(self, action: Action, origin: Origin | None = None) -> None:
        """Apply a night action and store it (with ``origin``: the handset input it came from, stored as
        that handset's last acked one); on a store failure the night is as before (and raises)."""
        engine = self._engine()
        engine.apply(action)
        if self.store is None or self.night_id is None:
            return
        try:
            self.store.append_night_actions(self.night_id, len(engine.log) - 1, [action.to_json()], origin)
        except StoreError:
            self.engine = NightEngine.rebuild(engine.players, engine.options, engine.log[:-1])
            raise
        self._finish_if_over()

    def _finish_if_over(self) -> None:
        engine = self._engine()
        if engine.finished and self.store is not None and self.night_id is not None:
            league = None
            if self.league_plan is not None:  # rules.md The league 5: only a night from a league plan
                result_id = new_result_id(self.box, self.night_id)
                league = (
                    result_id,
                    night_result(
                        engine,
                        box=self.box,
                        result_id=result_id,
                        plan=self.league_plan,
                        seats=self.seats,
                        teams={},
                        finished=self.store.clock(),
                    ),
                )
            self.store.finish_night(self.night_id, engine.public_view(), league=league)

    def _hold(self, what: str) -> None:
        self.held, self.held_at, self.due_at = what, self.session.clock(), None
        self._keep_screen()

    def _save_screen(self) -> None:
        """Store what the quizmaster set for the night's screens (hold time, join QR code) and the final
        screen held, so that a restart brings them back (docs/night.md, A power cut). Raises StoreError."""
        if self.store is not None and self.night_id is not None:
            screen = {"hold": self.hold_seconds, "joining": self.joining, "held": self.held}
            self.store.set_night_screen(self.night_id, screen)

    def _keep_screen(self) -> None:
        """:meth:`_save_screen` for a change the night makes by itself (a final screen held or released, a
        round started): a store failure is logged, and the screen changes all the same (a screen, not a
        night action: after a restart it would be the standing again)."""
        try:
            self._save_screen()
        except StoreError as exc:
            log.error("the night's screen could not be stored: %s", exc)

    def player_at(self, handset_id: str) -> str | None:
        """The night's player whose handset ``handset_id`` is, if any."""
        return next((p for p, hid in self.seats.items() if hid == handset_id), None)
