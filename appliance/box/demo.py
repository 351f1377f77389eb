"""``quizbox demo``: the whole appliance on one machine, with bot handsets playing game after game.

The bots play like people (appliance.box.demo_bots). The demo's autopilot (its quizmaster) starts a game
once the bots are in, moves it on, and starts another when it ends; it drives only the games it started:
once the quizmaster starts a game from the admin page, the autopilot retires and never touches the
session again. ``--bots 0`` means no bots and no autopilot: the quizmaster runs the evening. The admin
page listens on the configured web host and port (all interfaces by default), and the TV's QR code and
the printed URLs point to an address it really listens on (this machine's LAN address)."""

from __future__ import annotations

import argparse
import logging
import random
import socket
import tempfile
import threading
from dataclasses import replace

from appliance.box.app import Appliance
from appliance.box.demo_bots import Person, answer_of
from appliance.box.sim import start_bots
from appliance.box.tv import join_info
from appliance.errors import QuizboxError
from appliance.infra.config import Config, load_config

log = logging.getLogger(__name__)

AUTO_ADVANCE_SECONDS = 4.0


def demo_config(path: str | None, data_dir: str) -> Config:
    """The given config, or the demo's own: box "demo", open join, and a fresh data folder, so each demo
    starts with the game it is asked for rather than resuming the last one."""
    config = load_config(path) if path else Config()
    if not path:
        box = replace(config.box, id="demo", name="Quizbox demo", join="open", data_dir=data_dir)
        config = replace(config, box=box)
    return config


def run_demo(args: argparse.Namespace, stop: threading.Event) -> int:
    with tempfile.TemporaryDirectory(prefix="quizbox-demo-") as data_dir:
        return _run_demo(args, stop, demo_config(args.config, data_dir))


def _run_demo(args: argparse.Namespace, stop: threading.Event, config: Config) -> int:
    with Appliance(config, broker_prefer=args.broker) as app:
        app.start()
        assert app.hub is not None and app.broker is not None
        hub = app.hub
        session = hub.session
        people = random.Random(args.bots)

        def person(i: int) -> Person:
            return Person(random.Random(people.random()), lambda: answer_of(session), skill=0.4 + 0.15 * (i % 4))

        bots = start_bots(config.box.id, app.connection, args.bots, chooser=lambda i: person(i).choose)
        for bot in bots:
            app.callback(bot.stop)
        addr = app.broker.address
        admin, local, setup = _admin_page(app, config)
        print("Quizbox demo is running:", flush=True)
        print(f"  broker      {addr.kind} on {addr.host}:{addr.port}", flush=True)
        print(f"  box         {config.box.id!r}, open join", flush=True)
        print(f"  handsets    {len(bots)} bots: {', '.join(b.id for b in bots)}", flush=True)
        if bots:
            print(f"  game        {args.game}, moved on automatically every {AUTO_ADVANCE_SECONDS:.0f} s "
                  "(until you start a game yourself)", flush=True)
        else:
            print("  game        none: no bots, no autopilot; start one from the admin page", flush=True)
        print(f"  admin page  {local}  (on this network: {admin}; phones join at {admin}/join)", flush=True)
        print(f"  TV in a browser  {admin}/tv", flush=True)
        if setup:
            print(f"  first run   open {local}/setup and type the setup code {setup}", flush=True)
        display = "headless" if args.headless else config.board.display
        print(f"  board       {display} display, {config.board.width}x{config.board.height}", flush=True)
        print("  stop        Ctrl-C", flush=True)
        host = threading.Thread(target=Autopilot(app, len(bots), args.game, stop).run, daemon=True)
        if bots:  # --bots 0: the quizmaster runs the evening, nothing starts or moves on by itself
            host.start()
        try:
            board = app.run_board(stop, display, join=join_info(config.box.id, 0, f"{admin}/join",
                                                                 admin.removeprefix("http://")))
            if args.snapshot:
                with open(args.snapshot, "wb") as f:
                    f.write(board.snapshot_png())
                print(f"  snapshot    {args.snapshot} ({board.frames} frames drawn)", flush=True)
        finally:
            stop.set()
            if host.is_alive():
                host.join(timeout=5)
    print("Quizbox demo stopped.", flush=True)
    return 0


def lan_address() -> str:
    """This machine's address on its network (the one phones reach), or 127.0.0.1 when it has none.
    A UDP socket's connect sends nothing: it only picks the interface a packet would leave by."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, never contacted
            address = str(sock.getsockname()[0])
        except OSError:
            return "127.0.0.1"
    return address if address and not address.startswith("0.") else "127.0.0.1"


def _admin_page(app: Appliance, config: Config) -> tuple[str, str, str | None]:
    """The admin page, talking to the demo's own broker: (its URL for phones and the TV's QR code, its
    URL on this machine, the first-run code). It listens where the web config says (all interfaces by
    default), so the address the QR code shows is one it really listens on."""
    from web import ServerThread, create_app
    from web.services import KEY

    assert app.broker is not None and app.store is not None
    addr = app.broker.address
    web_config = replace(config, broker=replace(config.broker, host=addr.host, port=addr.port))
    listen = config.web.host or "0.0.0.0"
    flask_app = create_app({"QUIZBOX_CONFIG": web_config, "STORE": app.store})
    try:
        server = ServerThread(flask_app, listen, config.web.port)
    except OSError:  # the usual port is taken on this machine: any free one will do
        server = ServerThread(flask_app, listen, 0)
    public_host = lan_address() if listen in ("0.0.0.0", "") else listen
    public = f"http://{public_host}:{server.port}"
    local = f"http://127.0.0.1:{server.port}" if listen in ("0.0.0.0", "127.0.0.1", "") else public
    flask_app.config["JOIN_URL"] = f"{public}/join"  # the Live page's picture draws the same QR code
    flask_app.config["JOIN_ADDRESS"] = public.removeprefix("http://")
    server.start()
    app.callback(server.stop)
    account = flask_app.extensions[KEY].account
    return public, local, None if account.is_set else account.setup_code()


class Autopilot:
    """The demo's quizmaster: starts a game once the bots are in, moves it on, starts another when it
    ends; it drives only the games it started and retires once someone else starts one."""

    def __init__(self, app: Appliance, bots: int, game: str, stop: threading.Event) -> None:
        assert app.hub is not None
        self.hub, self.bots, self.game, self.stop = app.hub, bots, game, stop
        self.mine: set[int | None] = set()  # game ids this autopilot started
        self.retired = False

    def step(self) -> None:
        """One look at the session (the loop runs it twice a second)."""
        session = self.hub.session
        if self.retired:
            return
        if session.state != "lobby" and session.game_id not in self.mine:
            self.retire()  # the quizmaster started a game: hands off from now on
            return
        if session.night is not None and session.night.active:
            self.retire("a quiz night")  # its rounds are the quizmaster's; between them the session is in the lobby
            return
        session.auto_advance = AUTO_ADVANCE_SECONDS if session.state == "playing" else None
        joined = sum(1 for h in self.hub.registry if h.online and h.accepted)
        if session.state == "playing" or joined < self.bots:
            return
        try:
            if session.state == "results":
                self.stop.wait(AUTO_ADVANCE_SECONDS * 2)
                if session.game_id not in self.mine or session.state != "results":
                    return  # meanwhile the quizmaster moved on
                self.hub.command({"cmd": "lobby"})
            self.hub.command({"cmd": "start", "game": self.game})
            self.mine.add(session.game_id)
            print(f"demo: started a game of {self.game} with {joined} handsets", flush=True)
        except QuizboxError as exc:
            print(f"demo: cannot start {self.game}: {exc}", flush=True)
            self.stop.wait(10)

    def retire(self, what: str = "a game") -> None:
        self.retired = True
        self.hub.session.auto_advance = None
        print(f"demo: the quizmaster started {what}; the autopilot stops", flush=True)

    def run(self) -> None:
        while not self.stop.is_set():
            self.step()
            self.stop.wait(0.5)
