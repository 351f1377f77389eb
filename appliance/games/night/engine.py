"""The quiz night engine (rules.md "Quiz night" 1-5): a run-sheet of rounds, one night standing,
a tie-break.

The night is pure like a game: its players and run-sheet are its options, every change is an
action in its log, and the log rebuilds it exactly. A round's game runs in the session; when it
ends, :class:`~appliance.games.night.actions.FinishRound` hands the night that game's whole action
log, and the night plays it again to place the round (rules.md Quiz night 2, 5): the night's points
never come from anything but the rounds' own logs. Phases: ``between`` (the next round waits for
its start), ``playing`` (a round is in play), ``tiebreak`` / ``card`` (every round is over and
players are tied for first, rules.md Quiz night 4), ``finished``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, ClassVar

from appliance.errors import ConfigError, IllegalAction, MalformedInput
from appliance.games.base import JSON, Action, Engine, Totals, Views, WrongPhase
from appliance.games.night import views
from appliance.games.night.actions import (
    NIGHT_ACTIONS,
    AbandonRound,
    AddRound,
    CloseCard,
    CorrectScore,
    EnterNumber,
    FinishRound,
    JoinNight,
    MoveRound,
    SeatRound,
    SkipRound,
    StartRound,
    TiebreakCard,
)
from appliance.games.night.kinds import KINDS, RoundKind
from appliance.games.night.placement import night_points, places
from appliance.games.night.plan import MAX_TITLE, RoundPlan, check_seats
from appliance.games.night.state import DONE, SCORED, Phase, Round, Status, Tiebreak
from appliance.games.night.stop import Played, play_round
from appliance.games.numbers import EXACT

MAX_NIGHT_PLAYERS = 256
"""Every player (or team) of the night: the buzzer round's largest table."""

MAX_ROUNDS = 50


class NotTied(IllegalAction):
    """A tie-break number from a player who is not (or no longer) tied for first (rules.md Quiz night 4)."""


class AlreadyEntered(IllegalAction):
    """A second number from the same player on one tie-break card."""


class NotToCome(IllegalAction):
    """A change to a round that is in play or over: only rounds still to come can be changed."""


class NoSuchRound(IllegalAction):
    """An action naming a round number the night does not have."""


class NightEngine(Engine):
    """A quiz night for 2 to 256 players (or teams). Options: ``rounds`` (the run-sheet: a list of
    :class:`RoundPlan` or their JSON) and ``title``."""

    game: ClassVar[str] = "night"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = MAX_NIGHT_PLAYERS
    actions: ClassVar[Mapping[str, type[Action]]] = {record.kind: record for record in NIGHT_ACTIONS}
    views: ClassVar[Views] = views
    final_phase: ClassVar[str] = Phase.FINISHED.value
    _phase: Phase

    def __init__(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> None:
        super().__init__(players, options)
        plans = [RoundPlan.from_json(data) for data in self.options["rounds"]]
        self.rounds: list[Round] = [
            Round(number, plan, plan.seated(self.players)) for number, plan in enumerate(plans, 1)
        ]
        self.cards: list[Tiebreak] = []
        self.corrections: list[CorrectScore] = []
        """The quizmaster's score corrections, in order (rules.md Quiz night 7)."""
        self._winners: list[str] = []
        self._phase = Phase.BETWEEN
        self._advance()

    def validate_options(self, options: JSON) -> JSON:
        unknown = sorted(set(options) - {"rounds", "title"})
        if unknown:
            raise ConfigError(f"unknown night option(s) {', '.join(unknown)}; known: rounds, title")
        title = options.get("title", "")
        if not isinstance(title, str) or len(title) > MAX_TITLE:
            raise ConfigError(f"a night's title is text of at most {MAX_TITLE} characters, got {title!r}")
        rounds = options.get("rounds", [])
        if not isinstance(rounds, Sequence) or isinstance(rounds, str) or len(rounds) > MAX_ROUNDS:
            raise ConfigError(f"a night's rounds are a list of at most {MAX_ROUNDS} rounds")
        plans = []
        for number, data in enumerate(rounds, 1):
            try:
                plan = data if isinstance(data, RoundPlan) else RoundPlan.from_json(data)
                self._check_plan(plan, f"round {number}")
            except (MalformedInput, IllegalAction) as exc:
                raise ConfigError(str(exc)) from exc
            plans.append(plan.to_json())
        return {"title": title, "rounds": plans}

    def _check_plan(self, plan: RoundPlan, where: str) -> tuple[str, ...]:
        """The plan's seats, if its game takes them with its options; ConfigError says why not."""
        kind = KINDS.get(plan.game)
        if kind is None:
            raise ConfigError(f"{where}: unknown game {plan.game!r}; a round is one of {', '.join(KINDS)}")
        seats = check_seats(plan, self.players)
        try:
            kind.check_flow_options(plan.options)
            kind.engine(list(seats), kind.engine_options(plan.options))
        except ConfigError as exc:
            raise ConfigError(f"{where} ({kind.title}): {exc}") from exc
        return seats

    # -- state queries -----------------------------------------------------------------------------

    @property
    def title(self) -> str:
        title: str = self.options["title"]
        return title

    def kind(self, round_: Round) -> RoundKind:
        return KINDS[round_.plan.game]

    def round(self, number: int) -> Round:
        """The round with id ``number``; :class:`NoSuchRound` if the night has none."""
        for round_ in self.rounds:
            if round_.number == number:
                return round_
        raise NoSuchRound(f"the night has no round {number} (rounds: {', '.join(str(r.number) for r in self.rounds)})")

    @property
    def playing(self) -> Round | None:
        """The round in play, if any."""
        return next((r for r in self.rounds if r.status is Status.PLAYING), None)

    def to_come(self) -> list[Round]:
        """Rounds still to come, in the order they will be played."""
        return [r for r in self.rounds if r.status is Status.PLANNED]

    @property
    def next_round(self) -> Round | None:
        to_come = self.to_come()
        return to_come[0] if to_come else None

    def scored(self) -> list[Round]:
        """Rounds that count (finished, or stopped and scored), in the order they were played."""
        return [r for r in self.rounds if r.status in SCORED]

    def standing(self) -> dict[str, int]:
        """Each player's night total: the sum of their night points (rules.md Quiz night 4)."""
        totals = dict.fromkeys(self.players, 0)
        for round_ in self.scored():
            for player, points in round_.points.items():
                totals[player] += points
        for correction in self.corrections:
            totals[correction.team] += correction.points
        return totals

    def places(self) -> dict[str, int]:
        """Each player's place in the night: by total, shared where equal, except that the tie-break
        (once played) orders the players who were tied for first."""
        keys = {p: (total, *self._tiebreak_key(p)) for p, total in self.standing().items()}
        return places(keys, self.players)

    def _tiebreak_key(self, player: str) -> tuple[int, int, Decimal]:
        """How far ``player`` got in the tie-break: cards still tied after, then having entered a
        number and being close on the card they dropped out on."""
        survived, entered, closeness = 0, 0, Decimal(0)
        for card in self.cards:
            if player not in card.tied or not card.closed:
                break
            if player in card.ahead:
                survived += 1
                continue
            entered = 1 if player in card.distances else 0
            closeness = -card.distances.get(player, Decimal(0))
            break
        return survived, entered, closeness

    def tied(self) -> list[str]:
        """Players tied for first now (seat order); once every round is over, the tie-break's cards
        narrow them down (rules.md Quiz night 4)."""
        standing = self.standing()
        best = max(standing.values())
        tied = [p for p in self.players if standing[p] == best]
        for card in self.cards:
            if card.closed:
                tied = list(card.ahead)
        return tied

    @property
    def card(self) -> Tiebreak | None:
        """The open tie-break card, if any."""
        card = self.cards[-1] if self.cards else None
        return card if card is not None and not card.closed else None

    def legal_inputs(self, player: str) -> JSON | None:
        """What ``player``'s handset may enter now: the tie-break's ``number`` prompt, or nothing."""
        self._check_player(player)
        card = self.card
        if card is not None and player in card.waiting_for:
            return {"input": EnterNumber.kind, "question": card.question}
        return None

    def status(self) -> str:
        if self._phase is Phase.FINISHED:
            return f"the night is over: {', '.join(self._winners)} won"
        if self._phase is Phase.PLAYING:
            round_ = self.playing
            assert round_ is not None
            return f"round {round_.number} ({self.kind(round_).title}) is in play"
        if self._phase is Phase.BETWEEN:
            round_ = self.next_round
            assert round_ is not None
            return f"waiting for the host to start round {round_.number} ({self.kind(round_).title})"
        if self._phase is Phase.TIEBREAK:
            return f"{', '.join(self.tied())} are tied for first: waiting for a tie-break card"
        card = self.card
        assert card is not None
        return f"tie-break card {card.number} is waiting for numbers from {', '.join(card.waiting_for)}"

    # -- changing the rounds still to come (host) ------------------------------------------------------

    def _require_changes(self, action: Action) -> None:
        self._require_host(action)
        if self._phase not in (Phase.BETWEEN, Phase.PLAYING):
            raise WrongPhase(f"{action.kind} refused: every round is over; {self.status()}")

    def _planned(self, number: int, what: str) -> Round:
        round_ = self.round(number)
        if round_.status is not Status.PLANNED:
            raise NotToCome(f"{what} refused: round {number} is {round_.status.value}, not still to come")
        return round_

    def verify_add_round(self, action: AddRound) -> None:
        self._require_changes(action)
        if len(self.rounds) >= MAX_ROUNDS:
            raise IllegalAction(f"a night has at most {MAX_ROUNDS} rounds")
        try:
            self._check_plan(action.plan, "the new round")
        except ConfigError as exc:
            raise IllegalAction(str(exc)) from exc
        if action.before is not None:
            self._planned(action.before, "adding a round before it")

    def add_round(self, action: AddRound) -> None:
        self.verify_add_round(action)
        self._record(action)
        number = max((r.number for r in self.rounds), default=0) + 1
        new = Round(number, action.plan, action.plan.seated(self.players))
        self._insert(new, action.before)
        self._advance()

    def _insert(self, round_: Round, before: int | None) -> None:
        if before is None:
            self.rounds.append(round_)
        else:
            self.rounds.insert(self.rounds.index(self.round(before)), round_)

    def verify_skip_round(self, action: SkipRound) -> None:
        self._require_changes(action)
        self._planned(action.round, "skipping it")

    def skip_round(self, action: SkipRound) -> None:
        self.verify_skip_round(action)
        self._record(action)
        self.round(action.round).status = Status.SKIPPED
        self._advance()

    def verify_move_round(self, action: MoveRound) -> None:
        self._require_changes(action)
        self._planned(action.round, "moving it")
        if action.before is not None:
            if action.before == action.round:
                raise IllegalAction(f"round {action.round} cannot move before itself")
            self._planned(action.before, f"moving round {action.round} before it")

    def move_round(self, action: MoveRound) -> None:
        self.verify_move_round(action)
        self._record(action)
        moving = self.round(action.round)
        self.rounds.remove(moving)
        self._insert(moving, action.before)
        self._advance()

    def verify_seat_round(self, action: SeatRound) -> None:
        self._require_changes(action)
        round_ = self._planned(action.round, "changing its seats")
        try:
            self._check_plan(round_.plan.with_seats(action.seats), f"round {action.round}")
        except ConfigError as exc:
            raise IllegalAction(str(exc)) from exc

    def seat_round(self, action: SeatRound) -> None:
        self.verify_seat_round(action)
        self._record(action)
        round_ = self.round(action.round)
        round_.plan = round_.plan.with_seats(action.seats)
        round_.seats = tuple(action.seats)
        self._advance()

    # -- playing the rounds (host) ---------------------------------------------------------------------

    def verify_start_round(self, action: StartRound) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.BETWEEN)

    def start_round(self, action: StartRound) -> None:
        self.verify_start_round(action)
        self._record(action)
        round_ = self.next_round
        assert round_ is not None
        round_.status = Status.PLAYING
        self._advance()

    def _check_finish(self, action: FinishRound) -> Played:
        """Verify ``action`` (the round's log plays again, and its game is over or it is stopped) and
        return the round's game as it ended."""
        self._require_host(action)
        self._require_phase(action, Phase.PLAYING)
        round_ = self.playing
        assert round_ is not None
        kind = self.kind(round_)
        return play_round(kind, round_.seats, kind.engine_options(round_.plan.options), action.log, action.stopped)

    def verify_finish_round(self, action: FinishRound) -> None:
        self._check_finish(action)

    def finish_round(self, action: FinishRound) -> None:
        played = self._check_finish(action)
        self._record(action)
        round_ = self.playing
        assert round_ is not None
        keys = self.kind(round_).keys(played.engine)
        round_.places = places(keys, round_.seats)
        round_.points = night_points(keys, round_.seats, self.players, round_.plan.multiplier)
        round_.status = Status.STOPPED if played.stopped else Status.FINISHED
        round_.log, round_.engine, round_.dropped = action.log, played.engine, played.dropped
        self._advance()

    def verify_abandon_round(self, action: AbandonRound) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.PLAYING)

    def abandon_round(self, action: AbandonRound) -> None:
        self.verify_abandon_round(action)
        self._record(action)
        round_ = self.playing
        assert round_ is not None
        round_.status = Status.ABANDONED
        round_.points = dict.fromkeys(self.players, 0)
        self._advance()

    # -- score corrections (rules.md Quiz night 7) -------------------------------------------------------

    def verify_correct_score(self, action: CorrectScore) -> None:
        self._require_host(action)
        self._check_player(action.team)
        if self._phase is Phase.FINISHED or self.cards:
            raise WrongPhase(f"a score correction for {action.team} refused: the standing is settled once the "
                             f"tie-break starts or the night is over; {self.status()}")

    def correct_score(self, action: CorrectScore) -> None:
        self.verify_correct_score(action)
        self._record(action)
        self.corrections.append(action)
        self._advance()

    # -- a latecomer (rules.md Quiz night 1) ----------------------------------------------------------

    def verify_join_night(self, action: JoinNight) -> None:
        self._require_changes(action)
        team = action.team
        if team in self.players:
            raise IllegalAction(f"{team} is already a player of this night")
        if len(self.players) >= self.max_players:
            raise IllegalAction(f"a night has at most {self.max_players} players")
        players = [*self.players, team]
        for round_ in self.to_come():
            if round_.plan.seats is None:
                kind = self.kind(round_)
                try:
                    kind.engine(players, kind.engine_options(round_.plan.options))
                except ConfigError as exc:
                    raise IllegalAction(f"{team} cannot join: round {round_.number} ({kind.title}) seats everyone "
                                        f"and {exc}; change its seats first") from exc

    def join_night(self, action: JoinNight) -> None:
        self.verify_join_night(action)
        self._record(action)
        self.players = (*self.players, action.team)
        for round_ in self.to_come():
            round_.seats = round_.plan.seated(self.players)
        self._advance()

    # -- the tie-break (rules.md Quiz night 4) ----------------------------------------------------------

    def verify_tiebreak_card(self, action: TiebreakCard) -> None:
        self._require_host(action)
        if self._phase is Phase.FINISHED:
            raise WrongPhase(f"no tie-break card now: {self.status()}")
        self._require_phase(action, Phase.TIEBREAK)

    def tiebreak_card(self, action: TiebreakCard) -> None:
        self.verify_tiebreak_card(action)
        self._record(action)
        self.cards.append(Tiebreak(len(self.cards) + 1, action.question, action.answer, tuple(self.tied())))
        self._advance()

    def verify_number(self, action: EnterNumber) -> None:
        player = action.player
        self._check_player(player)
        card = self.card
        rounds_over = self._phase in (Phase.TIEBREAK, Phase.CARD, Phase.FINISHED)
        if self._phase is Phase.FINISHED or (rounds_over and player not in self.tied()):
            raise NotTied(f"{player}'s number refused: {player} is not tied for first; {self.status()}")
        if card is None:
            raise WrongPhase(f"{player}'s number refused: no tie-break card is open; {self.status()}")
        if player not in card.tied:
            raise NotTied(f"{player}'s number refused: {player} is not tied for first; {self.status()}")
        if player in card.numbers:
            raise AlreadyEntered(f"{player} has already entered a number for tie-break card {card.number}")

    def number(self, action: EnterNumber) -> None:
        self.verify_number(action)
        self._record(action)
        card = self.card
        assert card is not None
        card.numbers[action.player] = action.number
        self._advance()

    def verify_close_card(self, action: CloseCard) -> None:
        self._require_host(action)
        self._require_phase(action, Phase.CARD)

    def close_card(self, action: CloseCard) -> None:
        self.verify_close_card(action)
        self._record(action)
        card = self.card
        assert card is not None
        self._resolve(card)
        self._advance()

    def _resolve(self, card: Tiebreak) -> None:
        """Closest to the answer wins, exactly by absolute difference; equal closest stay tied (and
        play another card). A tied player with no number falls behind those with one; if nobody
        entered one, everyone on the card stays tied."""
        card.distances = {p: EXACT.abs(EXACT.subtract(n, card.answer)) for p, n in card.numbers.items()}
        if card.distances:
            best = min(card.distances.values())
            card.ahead = tuple(p for p in card.tied if card.distances.get(p) == best)
        else:
            card.ahead = card.tied
        card.closed = True

    # -- the phase machine -------------------------------------------------------------------------

    def _advance(self) -> None:
        """The one place the phase moves on; a card resolves once every tied player has entered."""
        card = self.card
        if card is not None and not card.waiting_for:
            self._resolve(card)
        self._phase = self._next_phase()
        self._winners = self.tied() if self._phase is Phase.FINISHED else []

    def _next_phase(self) -> Phase:
        if any(r.status is Status.PLAYING for r in self.rounds):
            return Phase.PLAYING
        if any(r.status not in DONE for r in self.rounds):
            return Phase.BETWEEN
        if len(self.tied()) == 1:
            return Phase.FINISHED
        return Phase.CARD if self.card is not None else Phase.TIEBREAK

    # -- views -------------------------------------------------------------------------------------

    def totals(self) -> Totals:
        """The night's standing as every public view's points table (the sum of night points)."""
        return Totals("Night points", "points", self.standing())

    def state(self) -> JSON:
        return {
            "rounds": [r.snapshot() for r in self.rounds],
            "cards": [c.snapshot() for c in self.cards],
            "corrections": [c.to_json() for c in self.corrections],
        }
