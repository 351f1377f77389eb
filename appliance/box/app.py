"""The running appliance: broker, session and hub (and, as their issues land, board and admin page)
assembled from a :class:`Config`; a context manager that stops everything it started, in reverse order."""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pygame

from appliance.board import Board, pictures
from appliance.box.pulse import Pulse
from appliance.box.recovery import Claims, Keeper, Report, check_on_start, say
from appliance.box.tv import TV, join_info
from appliance.decks.deal import cards_for_game, seed_shipped
from appliance.edge.accounts import AccountsError, BrokerAccounts, Dynsec, PahoTransport
from appliance.edge.broker import RunningBroker, start_broker
from appliance.edge.hub import STATUS_TTL, Hub
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import Pairing, PairingError
from appliance.edge.pairing_broker import PairingBroker, pairing_port
from appliance.errors import ConfigError, QuizboxError
from appliance.flows import flow_factory
from appliance.games.dealt import DealtCard
from appliance.hardware.clips import CardSound, card_sound
from appliance.infra.config import Config
from appliance.infra.health import Health, Retry, backoff
from appliance.infra.league_store import LeagueStore
from appliance.infra.media import MediaStore
from appliance.infra.store import Store
from appliance.league.member import MemberLink
from appliance.session.night import NightRunner
from appliance.session.session import Session

log = logging.getLogger(__name__)


class Appliance(contextlib.ExitStack):
    """Everything the box runs, started by :meth:`start`; leaving the ``with`` block stops it all."""

    def __init__(
        self,
        config: Config,
        broker_prefer: str = "auto",
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        accounts: bool | None = None,
        league: bool | None = None,
        pairing_bind: str = "",
    ) -> None:
        super().__init__()
        # handsets' own broker accounts (pairing); None: when the box's broker is its own mosquitto with
        # a user name for the appliance (the installed box)
        self.accounts = accounts
        # a league member (docs/league.md): None: when the installer joined this box to a league (its
        # bridge's CA next to the config, written by deploy/configure.py --join-league)
        self.league = league
        self.member: MemberLink | None = None
        self.pairing_bind = pairing_bind  # the pairing broker's address ("": every interface; a test: loopback)
        self.pairing: Pairing | None = None
        self.config = config
        self.broker_prefer = broker_prefer
        self.clock = clock
        self.rng = rng or random.Random()
        self.broker: RunningBroker | None = None
        self.hub: Hub | None = None
        self.store: Store | None = None
        self.health = Health(config.data_path)
        self.report: Report | None = None  # what the start-up check found (appliance/box/recovery.py)
        self.keeper: Keeper | None = None
        self.pulse: Pulse | None = None
        self._advertised: Any = None

    @property
    def connection(self) -> Connection:
        assert self.broker is not None, "start() first"
        b = self.config.broker
        addr = self.broker.address
        external = addr.kind == "external"
        return Connection(
            host=addr.host,
            port=addr.port,
            username=b.username if external else "",
            password=b.password if external else "",
            tls=b.tls if external else False,
            ca_file=b.ca_file,
            keepalive=b.keepalive,
        )

    def start(self) -> Appliance:
        db = self.config.data_path / "quizbox.db"
        self.health.save()  # a fresh file: the parts and the report of this start, not the last one's
        self.report = check_on_start(db)  # before anything opens the database: WAL, good copy
        self.store = Store(db)
        self.callback(self.store.close)
        self.keeper = Keeper(db, self.health).start()
        self.callback(self.keeper.stop)
        self.store.milestone = self.keeper.request  # copied after every question, start, end and undo
        self.media = MediaStore(self.config.data_path / "media", self.config.box.media_cap_mb * 1024 * 1024)
        pictures.use(self.media.read)  # the TV loads a card's picture by its reference, once (issue 34)
        seeded = seed_shipped(self.store)
        if seeded:
            log.info("put %d shipped decks in the store", seeded)
        b = self.config.broker
        self.broker = start_broker(b.host, b.port, prefer=self.broker_prefer)
        self.callback(self.broker.stop)
        session = Session(self.clock, self.rng, box_name=self.config.box.name, store=self.store, flows=flow_factory)
        runner = NightRunner(session, self.store, self._cards)
        runner.box = self.config.box.id  # a league night's result is signed with it (rules.md The league 5)
        runner.resume()  # a night's round, or the game, in play
        say(self.report, session, self.health)  # the TV, the admin page and the doctor say what was lost
        self.hub = Hub(
            self.config.box.id,
            session,
            self.connection,
            open_join=self.config.box.join == "open",
            clock=self.clock,
            decks=self._cards,
            store=self.store,
            pairing=self._pairing(),
            pairing_at=self._pairing_broker(),
            # the retained online expires unless said again (MQTT 5: mosquitto; the demo's amqtt is 3.1.1)
            status_ttl=None if self.broker.address.kind == "amqtt" else STATUS_TTL,
        )
        # Before the hub sends this start's first prompt: listen to hellos and announce the new start, so
        # that handsets still connected say hello with the last input the box acked before it died (after
        # a new prompt they would already have answered it, and the old ack be forgotten)
        claims = Claims(self.report, self.hub, self.health, self.connection).start()
        self.callback(claims.stop)
        claims.announce()
        self.hub.start()
        self.callback(self.hub.stop)
        claims.hand_over()  # the hellos of the grace: handsets still connected are at the table again
        self.pulse = Pulse(self.hub).start()
        self.callback(self.pulse.stop)
        self._member()
        addr = self.broker.address
        log.info("hub connected to %s broker at %s:%s", addr.kind, addr.host, addr.port)
        return self

    def is_league_member(self) -> bool:
        if self.league is not None:
            return self.league
        source = Path(self.config.source)
        return source.is_file() and (source.parent / "league" / "ca.pem").is_file()

    def _member(self) -> None:
        """The member link (appliance/league/member.py) on the box's own broker, whose bridge carries the
        league's topics: finished league nights' results out, plans and the season table in. Optional: a
        broker that refuses it is reported, and the room plays on."""
        if not self.is_league_member():
            return
        assert self.store is not None and self.hub is not None
        conn, hub = self.connection, self.hub

        def table(rows: list[Any]) -> None:
            with hub.outbox:  # as a command does: the session's state, then the board, in turn
                night = hub.session.night
                if night is not None:
                    night.league_table = rows
                hub.publish_state()

        try:
            self.member = MemberLink(LeagueStore(self.store), self.config.box.id, conn.host, conn.port,
                                     conn.username, conn.password, on_table=table)
        except QuizboxError as exc:
            self.health.failing("league", f"not linked to the league: {exc}")
            log.error("league link: %s", exc)
            return
        self.callback(self.member.close)
        self.health.ok("league", "linked: results go out over the league bridge")
    def _card_sound(self) -> CardSound | None:
        """The TV's player of the cards' sounds on ``board.audio_device`` (issue 34); None, said once on the
        admin page and in the log, when the box has no audio device."""
        def report(words: str) -> None:
            log.warning("%s", words)
            self.health.failing("card-sound", words)

        return card_sound(self.config.board.audio_device, self.media.path, time.monotonic, report)

    def advertise(self, first_retry: float = 5.0) -> Retry | None:
        """Announce the box on mDNS, an optional part: a network without multicast (or no network yet)
        is reported and tried again in the background; the game never waits for it. A broker handsets
        cannot reach is not announced at all (None), and the log says why."""
        from appliance.edge import discovery

        assert self.broker is not None
        cfg, port = self.config, self.broker.address.port
        why = discovery.unreachable_from_lan(self.broker.address.kind)
        if why is not None:
            log.warning("not announced on mDNS: %s", why)
            self.health.ok("mdns", f"not announced: {why}")
            return None

        def attempt() -> str:
            advertised = discovery.advertise(cfg.box.id, port, cfg.web.port, box_name=cfg.box.name)
            advertised.__enter__()
            self._advertised = advertised
            where = ", ".join(advertised.current) or "no address yet"
            return f"announced as {discovery.host_name(cfg.box.id)} at {where}"

        retry = Retry(self.health, "mdns", attempt, first=first_retry, longest=120.0).start()
        self.callback(self._unadvertise)
        self.callback(retry.stop)
        return retry

    def _unadvertise(self) -> None:
        if self._advertised is not None:
            self._advertised.__exit__(None, None, None)
            self._advertised = None

    def _pairing(self) -> Pairing | None:
        """Handsets' own broker accounts, when the box runs its own mosquitto with accounts: kept in its
        dynamic security plugin (appliance/edge/accounts.py), logged in to as the appliance's account."""
        b = self.config.broker
        wanted = self.accounts
        if wanted is None:
            wanted = b.host in ("127.0.0.1", "localhost", "::1") and bool(b.username)
        if not wanted:
            return None
        conn = self.connection
        try:
            transport = PahoTransport(conn.host, conn.port, conn.username, conn.password,
                                      tls=conn.tls, ca_file=conn.ca_file)
        except AccountsError as exc:
            log.error("pairing is off: %s", exc)
            return None
        self.callback(transport.close)
        accounts = BrokerAccounts(self.config.box.id, Dynsec(transport), appliance_user=b.username or "appliance")
        self.pairing = Pairing(accounts)
        try:
            self.pairing.ensure_service_account()
        except PairingError as exc:  # handsets with accounts still play; new ones cannot pair until fixed
            log.error("pairing is off: %s", exc)
        return self.pairing

    def _pairing_broker(self) -> tuple[str, int] | None:
        """The pairing desk's own broker (appliance/edge/pairing_broker.py), on every interface at the box's
        port + 1, when handsets pair; None (the desk reads on the game's broker) without pairing or when
        it cannot start (the log says why)."""
        if self.pairing is None:
            return None
        conn = self.connection
        try:
            made = PairingBroker(self.config.box.id, conn.username, conn.password, pairing_port(conn.port),
                                 bind=self.pairing_bind)
        except (ConfigError, OSError) as exc:
            # the doctor and the admin page say so; requests on the game's broker are still read meanwhile
            self._pairing_on_game_broker(True)
            self.health.failing("pairing", f"did not start ({exc}); pairing requests are read on the game's "
                                           "broker, where a flood of them slows the game")
            return None
        self.callback(made.stop)
        made.on_restart = lambda code: self.health.failing(
            "pairing", f"stopped (exit {code}) and was started again; a flood of pairing requests may be "
                       "the cause")
        self.health.ok("pairing", f"its own process, port {made.port}")
        self._pairing_on_game_broker(False)  # the game's broker refuses the public account from now on
        return (conn.host, made.port)

    def _pairing_on_game_broker(self, allowed: bool) -> None:
        assert self.pairing is not None
        try:
            self.pairing.accounts.pairing_here(allowed)
        except AccountsError as exc:
            log.error("the game's broker: cannot %s the pairing account: %s", "enable" if allowed else "disable", exc)

    def run_board(self, stop: threading.Event, display: str | None = None, first_retry: float = 2.0,
                  longest_retry: float = 60.0, join: Mapping[str, str] | None = None) -> Board:
        """Show the board (from the retained public state) on the main thread until ``stop`` is set.

        The TV is an optional part: a screen that cannot open (the TV off or unplugged at boot, no
        kmsdrm) or a board that fails while drawing is reported on the admin page and the doctor and
        tried again, ever more slowly, while the game goes on from the handsets and the admin page's
        live view (which draws the same board)."""
        assert self.hub is not None
        cfg = self.config
        board = Board((cfg.board.width, cfg.board.height), display or cfg.board.display, cfg.board.sound,
                      report=self._board_report, clips=self._card_sound)
        # how phones join: the box's mDNS name, unless the caller knows better (the demo's real address)
        join = dict(join) if join is not None else join_info(cfg.box.id, cfg.web.port)
        with TV(cfg.box.id, self.connection, board, self.hub.command, join, gpio=cfg.gpio, health=self.health):
            delay = backoff(first_retry, longest_retry)
            while not stop.is_set():
                try:
                    board.open()
                    self._board_opened(board, stop, delay)
                except Exception as exc:  # noqa: BLE001 (only the rules may stop a game)
                    wait = delay()
                    if not isinstance(exc, (QuizboxError, pygame.error)):
                        log.exception("the board failed")
                    self.health.failing("board", f"no picture: {_first_line(exc)}; the admin page's live view "
                                                 f"shows the game; trying again in {wait:.0f} s")
                    board.close()
                    stop.wait(wait)
        return board

    def _board_opened(self, board: Board, stop: threading.Event, delay: Callable[[], float]) -> None:
        """Run the open board until ``stop``; a board that found no screen (``auto`` fell back to drawing
        for nobody) stops now and then to look for one again (a TV switched on after the box)."""
        if not board.screenless():
            self.health.ok("board", f"showing on {board.driver} at {board.size[0]}x{board.size[1]}")
            board.run(stop)
            return
        wait = delay()
        self.health.failing("board", f"no screen found (drawing for nobody): the admin page's live view shows "
                                     f"the game; looking for a screen again in {wait:.0f} s")
        attempt = threading.Event()
        timer = threading.Timer(wait, attempt.set)
        timer.daemon = True
        timer.start()

        def follow_stop() -> None:
            stop.wait(wait + 1)
            attempt.set()

        threading.Thread(target=follow_stop, name="board-stop", daemon=True).start()
        try:
            board.run(attempt)
        finally:
            timer.cancel()

    def _board_report(self, part: str, ok: bool, text: str) -> None:
        (self.health.ok if ok else self.health.failing)(part, text)

    def _cards(self, game: str, command: Mapping[str, Any]) -> Sequence[DealtCard]:
        assert self.store is not None
        deck = command.get("deck")
        return cards_for_game(self.store, game, self.rng, deck if isinstance(deck, str) else None,
                              command.get("filters"), unseen_only=command.get("unseen") is True)


def _first_line(exc: BaseException) -> str:
    return (str(exc) or type(exc).__name__).splitlines()[0][:300]
