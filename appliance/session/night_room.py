"""The quizmaster's changes to a quiz night in progress: the rounds still to come, an interval, latecomers,
score corrections (rules.md Quiz night 7), a seat moved to another handset, and the tie-break's card and
numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from appliance.errors import IllegalAction, MalformedInput
from appliance.games.base import HOST
from appliance.games.night import (
    AddRound,
    CloseCard,
    CorrectScore,
    EnterNumber,
    JoinNight,
    MoveRound,
    RoundPlan,
    SeatRound,
    SkipRound,
    TiebreakCard,
)
from appliance.games.night.state import Phase
from appliance.games.numbers import parse_number
from appliance.infra.store import Origin
from appliance.session.night_core import MAX_INTERVAL_SECONDS, TIEBREAK, NightCore


class NightRoom(NightCore):
    if TYPE_CHECKING:

        def release(self) -> None: ...

    # -- the rounds still to come --------------------------------------------------------------------

    def add_round(self, plan: Mapping[str, Any], before: int | None = None) -> None:
        self._apply(AddRound(HOST, RoundPlan.from_json(plan), before))
        self.session._changed()

    def skip_round(self, number: int) -> None:
        self._apply(SkipRound(HOST, number))
        self.session._changed()

    def move_round(self, number: int, before: int | None) -> None:
        self._apply(MoveRound(HOST, number, before))
        self.session._changed()

    def seat_round(self, number: int, seats: Sequence[str]) -> None:
        self._apply(SeatRound(HOST, number, tuple(seats)))
        self.session._changed()

    def interval(self, seconds: int) -> None:
        """An interval screen counting down ``seconds`` (between rounds only; not stored)."""
        engine = self._engine()
        if engine.phase != Phase.BETWEEN.value:
            raise IllegalAction(f"an interval is for between rounds: {engine.status()}")
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not 0 <= seconds <= MAX_INTERVAL_SECONDS:
            raise MalformedInput(f"an interval is 0 to {MAX_INTERVAL_SECONDS} seconds, got {seconds!r}")
        self.interval_until = self.session.clock() + seconds if seconds else None
        self.session._changed()

    def join(self, team: str, handset_id: str) -> None:
        """A latecomer joins the night in progress on ``handset_id`` with 0 points so far (rules.md Quiz
        night 1); refused, changing nothing, when that handset already seats a player of the night."""
        engine = self._engine()
        holder = self.player_at(handset_id)
        if holder is not None:
            raise IllegalAction(f"that handset is {holder}'s in this quiz night")
        action = JoinNight.of(team)
        engine.verify(action)
        seats = {**self.seats, team: handset_id}
        if self.store is not None and self.night_id is not None:
            self.store.join_night(self.night_id, len(engine.log), action.to_json(), seats)
        engine.apply(action)
        self.seats = seats
        self.session._changed()

    def correct_score(self, team: str, points: int, reason: str) -> None:
        """The quizmaster adds (or takes) ``points`` to ``team``'s standing with a reason: a night action,
        stored and replayed like any (rules.md Quiz night 7)."""
        self._apply(CorrectScore.of(team, points, reason))
        self.session._changed()

    # -- the tie-break -------------------------------------------------------------------------------------

    def tiebreak_card(self, question: str, answer: str) -> None:
        self._apply(TiebreakCard.deal(question, parse_number(answer)))
        if self.held is not None:
            self.release()  # the card replaces the last round's final screen
        self.session._changed()

    def enter_number(self, player: str, number: str, origin: Origin | None = None) -> None:
        """A tied player's number (typed by the quizmaster, or from their handset with ``origin``)."""
        self._apply(EnterNumber(player, parse_number(number)), origin)
        self._hold_last_card()
        self.session._changed()

    def _hold_last_card(self) -> None:
        """The tie-break card that decided the night stays up with its answer and numbers."""
        engine = self._engine()
        if engine.finished and engine.cards:
            self._hold(TIEBREAK)

    def move_seat(self, player: str, handset_id: str) -> tuple[int, dict[str, str]] | None:
        """``player``'s seat moves to ``handset_id`` in the round being played: the night's seat moves too
        (the later rounds seat the player there). Refused, changing nothing, when that handset is another
        player's in the night (one sitting this round out). Returns what the store keeps with the round's
        seats (appliance.infra.store.Store.update_seats), or None when the night does not seat ``player``."""
        if self.engine is None or self.engine.phase != Phase.PLAYING.value or player not in self.seats:
            return None  # no round of a night on the table: a one-off game's seat
        holder = self.player_at(handset_id)
        if holder is not None and holder != player:
            raise IllegalAction(f"that handset is {holder}'s in this quiz night")
        self.seats = {p: (handset_id if p == player else hid) for p, hid in self.seats.items()}
        return None if self.night_id is None else (self.night_id, dict(self.seats))

    def number_from(self, handset_id: str, data: Mapping[str, Any], origin: Origin | None = None) -> str:
        """A tied player's number from their handset's ``number`` prompt (protocol 1.2); the ack's message.
        Refused (nothing changes) when the handset's player is not waiting for a number now."""
        player = self.player_at(handset_id)
        card = self.engine.card if self.engine is not None else None
        if player is None or card is None or player not in card.waiting_for:
            raise IllegalAction("no tie-break number is wanted from you now")
        number = data.get("number")
        if not isinstance(number, str):
            raise MalformedInput(f"a tie-break number is text, got {number!r}")
        self.enter_number(player, number, origin)
        return f"number {number} in"

    def close_card(self) -> None:
        self._apply(CloseCard(HOST))
        self._hold_last_card()
        self.session._changed()
