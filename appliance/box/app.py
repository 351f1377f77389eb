"""The running appliance: broker, session and hub (and, as their issues land, board and admin page)
assembled from a :class:`Config`; a context manager that stops everything it started, in reverse order."""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from appliance.board import Board
from appliance.box.config import Config
from appliance.box.store import Store
from appliance.box.tv import TV, join_info
from appliance.decks.deal import cards_for_game, seed_shipped
from appliance.edge.accounts import AccountsError, BrokerAccounts, Dynsec, PahoTransport
from appliance.edge.broker import RunningBroker, start_broker
from appliance.edge.hub import Hub
from appliance.edge.mqtt import Connection
from appliance.edge.pairing import Pairing, PairingError
from appliance.session.flow import Card
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
    ) -> None:
        super().__init__()
        # handsets' own broker accounts (pairing); None: when the box's broker is its own mosquitto with
        # a user name for the appliance (the installed box)
        self.accounts = accounts
        self.pairing: Pairing | None = None
        self.config = config
        self.broker_prefer = broker_prefer
        self.clock = clock
        self.rng = rng or random.Random()
        self.broker: RunningBroker | None = None
        self.hub: Hub | None = None
        self.store: Store | None = None

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
        self.store = Store(self.config.data_path / "quizbox.db")
        self.callback(self.store.close)
        seeded = seed_shipped(self.store)
        if seeded:
            log.info("put %d shipped decks in the store", seeded)
        b = self.config.broker
        self.broker = start_broker(b.host, b.port, prefer=self.broker_prefer)
        self.callback(self.broker.stop)
        session = Session(self.clock, self.rng, box_name=self.config.box.name, store=self.store)
        NightRunner(session, self.store, self._cards).resume()  # a night's round, or the game, in play
        self.hub = Hub(
            self.config.box.id,
            session,
            self.connection,
            open_join=self.config.box.join == "open",
            clock=self.clock,
            decks=self._cards,
            store=self.store,
            pairing=self._pairing(),
        )
        self.hub.start()
        self.callback(self.hub.stop)
        addr = self.broker.address
        log.info("hub connected to %s broker at %s:%s", addr.kind, addr.host, addr.port)
        return self

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

    def run_board(self, stop: threading.Event, display: str | None = None) -> Board:
        """Show the board (from the retained public state) on the main thread until ``stop`` is set."""
        assert self.hub is not None
        cfg = self.config
        board = Board((cfg.board.width, cfg.board.height), display or cfg.board.display, cfg.board.sound)
        join = join_info(cfg.box.id, cfg.web.port)
        with TV(cfg.box.id, self.connection, board, self.hub.command, join, gpio=cfg.gpio):
            board.run(stop)
        return board

    def _cards(self, game: str, command: Mapping[str, Any]) -> Sequence[Card]:
        assert self.store is not None
        deck = command.get("deck")
        return cards_for_game(self.store, game, self.rng, deck if isinstance(deck, str) else None,
                              command.get("filters"))
