"""What the TV and the handsets see of a quiz night: the held final screen (rules.md Quiz night 6), the
join QR code between rounds, the standing, the interval, the tie-break and the podium, and each handset's
place between rounds.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from appliance.errors import IllegalAction, MalformedInput
from appliance.games.base import JSON
from appliance.games.night.state import Phase
from appliance.games.numbers import format_plain
from appliance.infra.store import StoreError
from appliance.session.flow import info
from appliance.session.night_core import MAX_HOLD_SECONDS, NEXT_GRACE_SECONDS, ROUND, TIEBREAK, NightCore
from firmware import protocol


class NightScreen(NightCore):
    if TYPE_CHECKING:

        def due(self) -> bool: ...

    def release(self) -> None:
        """The held final screen makes way: for the night's standing (or podium)."""
        if self.held is None:
            raise IllegalAction("no final screen is held")
        held, self.held, self.held_at = self.held, None, None
        self.round_ended = self.session.clock()
        self._keep_screen()
        if held == ROUND and self.session.state != "playing":
            self.session.to_lobby()
        else:
            self.session._changed()

    def hold_for(self, seconds: int | None) -> None:
        """How long a final screen stays (None: until the quizmaster's *next*)."""
        if seconds is not None and (
            not isinstance(seconds, int) or isinstance(seconds, bool) or not 1 <= seconds <= MAX_HOLD_SECONDS
        ):
            raise MalformedInput(f"a hold time is 1 to {MAX_HOLD_SECONDS} seconds (or none), got {seconds!r}")
        with self._stored_settings():
            self.hold_seconds = seconds

    def show_join(self, show: bool) -> None:
        """The join QR code (the lobby screen) on the TV between rounds, or the standing again."""
        engine = self._engine()
        if show and (self.session.state == "playing" or engine.phase == Phase.PLAYING.value):
            raise IllegalAction("the join QR code shows between rounds; a round is in play")
        with self._stored_settings():
            self.joining = show

    @contextmanager
    def _stored_settings(self) -> Iterator[None]:
        """The screen settings set in the block, stored (kept over a restart) and shown; if the store fails
        they are put back as they were and the error goes on to the caller."""
        before = self.hold_seconds, self.joining
        yield
        try:
            self._save_screen()
        except StoreError:
            self.hold_seconds, self.joining = before
            raise
        self.session._changed()

    # -- the host's *next* -------------------------------------------------------------------------

    def wants_next(self) -> bool:
        """Whether the host's *next* belongs to the night now: between rounds (start the next one, once
        :data:`NEXT_GRACE_SECONDS` have passed since the last round ended), or a round that is due
        (:meth:`due`)."""
        engine = self.engine
        between = engine is not None and engine.phase == Phase.BETWEEN.value and self.session.state != "playing"
        now, ended = self.session.clock(), self.round_ended
        if self.held is not None:
            return True  # a final screen: *next* moves on to the standing (which then waits its grace)
        settled = ended is None or now - ended >= NEXT_GRACE_SECONDS
        return (between and settled) or self.due()

    # -- what the TV and the handsets see --------------------------------------------------------------

    def decorate(self, state: JSON) -> JSON:
        """The board state with the night: its view, and between rounds its own scene."""
        engine = self.engine
        if engine is not None and engine.finished and self.session.game_id not in (None, *self.games.values()):
            self.engine = engine = None  # a game after the night: the podium makes way for it
        if engine is None:
            return state
        view = engine.public_view()
        view["id"] = self.night_id
        view["hold"] = self.hold_seconds
        view["joining"] = self.joining
        view["seated"] = sorted(self.seats.values())  # the handsets the night seats (a latecomer takes another)
        state["night"] = view
        names = {hid: player for player, hid in self.seats.items()}
        # the night's players by name, each in the colour they had when they first sat (copies: the session
        # keeps its list); a moved seat keeps its team's colour
        players = []
        for entry in state.get("players", []):
            if isinstance(entry, dict) and entry.get("handset") in names:
                player = names[entry["handset"]]
                colour = self.colours.setdefault(player, str(entry.get("colour", "")))
                entry = {**entry, "name": player, "colour": colour}
            players.append(entry)
        state["players"] = players
        if self.held == ROUND and self.session.flow is None:
            self.held = None  # the quizmaster went back to the lobby from a stale page: nothing to hold
        if self.held == ROUND:  # the round's own final screen (rules.md Quiz night 6)
            state["held"] = True
            state["can_advance"] = self.wants_next()
            return state
        if self.held == TIEBREAK:  # the deciding card's answer and numbers, before the podium
            state["scene"], state["held"] = "night-tiebreak", True
            state["can_advance"] = self.wants_next()
            return state
        if self.session.state == "playing":
            if self.due():
                state["can_advance"] = True
            return state
        if engine.finished or engine.phase in (Phase.TIEBREAK.value, Phase.CARD.value):
            state["scene"] = "night-podium" if engine.finished else "night-tiebreak"
        elif self.joining and engine.phase == Phase.BETWEEN.value:
            state["scene"] = "lobby"  # the join QR code for latecomers (the TV adds how to join)
        elif self.interval_until is not None and self.session.clock() < self.interval_until:
            state["scene"] = "night-interval"
            state["remaining"] = max(0, int(self.interval_until - self.session.clock() + 0.999))
        else:
            state["scene"] = "night"
            if self.league_table is not None:
                view["league"] = self.league_table[:10]  # the league's top ten, read-only, between rounds
        state["can_advance"] = self.wants_next()
        return state

    def prompt(self, handset_id: str) -> JSON | None:
        """Between rounds, every player's handset shows their night place (None while a round plays)."""
        engine = self.engine
        player = self.player_at(handset_id)
        if engine is None or self.session.state == "playing" or player is None or self.held == ROUND:
            return None  # a round's final screen: the game's own last word
        standing, places = engine.standing(), engine.places()
        card = engine.card
        if card is not None and player in card.waiting_for:  # one exact number (or the quizmaster types it)
            return {
                "kind": protocol.NUMBER,
                "title": "Tie-break!",
                "text": card.question[: protocol.MAX_TEXT],
                "unit": "",
            }
        if card is not None and player in card.numbers:
            return info(
                "Locked in",
                f"Your number: {format_plain(card.numbers[player])}. The closest to the answer wins the tie-break.",
                wait=True,
            )
        if engine.finished:
            title = "You won the night!" if player in engine.winners() else "The night is over"
        else:
            title = "Quiz night"
        points = standing[player]
        return info(
            title, f"Place {places[player]} with {points} point{'' if points == 1 else 's'}", wait=not engine.finished
        )
