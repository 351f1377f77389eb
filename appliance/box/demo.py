"""``quizbox demo``: the whole appliance on one machine, with bot handsets playing game after game."""

from __future__ import annotations

import argparse
import logging
import tempfile
import threading
from dataclasses import replace

from appliance.box.app import Appliance
from appliance.box.config import Config, load_config
from appliance.box.sim import SimHandset, start_bots
from appliance.errors import QuizboxError

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
        hub.session.auto_advance = AUTO_ADVANCE_SECONDS
        bots = start_bots(config.box.id, app.connection, args.bots)
        for bot in bots:
            app.callback(bot.stop)
        addr = app.broker.address
        admin, setup = _admin_page(app, config)
        print("Quizbox demo is running:", flush=True)
        print(f"  broker      {addr.kind} on {addr.host}:{addr.port}", flush=True)
        print(f"  box         {config.box.id!r}, open join", flush=True)
        print(f"  handsets    {len(bots)} bots: {', '.join(b.id for b in bots)}", flush=True)
        print(f"  game        {args.game}, moved on automatically every {AUTO_ADVANCE_SECONDS:.0f} s", flush=True)
        print(f"  admin page  {admin}  (phones join at {admin}/join)", flush=True)
        if setup:
            print(f"  first run   open {admin}/setup and type the setup code {setup}", flush=True)
        display = "headless" if args.headless else config.board.display
        print(f"  board       {display} display, {config.board.width}x{config.board.height}", flush=True)
        print("  stop        Ctrl-C", flush=True)
        host = threading.Thread(target=_host, args=(app, bots, args.game, stop), daemon=True)
        host.start()
        try:
            board = app.run_board(stop, display)
            if args.snapshot:
                with open(args.snapshot, "wb") as f:
                    f.write(board.snapshot_png())
                print(f"  snapshot    {args.snapshot} ({board.frames} frames drawn)", flush=True)
        finally:
            stop.set()
            host.join(timeout=5)
    print("Quizbox demo stopped.", flush=True)
    return 0


def _admin_page(app: Appliance, config: Config) -> tuple[str, str | None]:
    """The admin page on this machine, talking to the demo's own broker; (its URL, the first-run code)."""
    from web import ServerThread, create_app
    from web.services import KEY

    assert app.broker is not None and app.store is not None
    addr = app.broker.address
    web_config = replace(config, broker=replace(config.broker, host=addr.host, port=addr.port))
    flask_app = create_app({"QUIZBOX_CONFIG": web_config, "STORE": app.store})
    try:
        server = ServerThread(flask_app, "127.0.0.1", config.web.port)
    except OSError:  # the usual port is taken on this machine: any free one will do
        server = ServerThread(flask_app, "127.0.0.1", 0)
    server.start()
    app.callback(server.stop)
    account = flask_app.extensions[KEY].account
    return server.url, None if account.is_set else account.setup_code()


def _host(app: Appliance, bots: list[SimHandset], game: str, stop: threading.Event) -> None:
    """The demo's quizmaster: starts a game once the bots are in, and another when it ends."""
    assert app.hub is not None
    hub = app.hub
    while not stop.is_set():
        joined = sum(1 for h in hub.registry if h.online and h.accepted)
        if hub.session.state != "playing" and joined >= len(bots):
            try:
                if hub.session.state == "results":
                    stop.wait(AUTO_ADVANCE_SECONDS * 2)
                    hub.command({"cmd": "lobby"})
                hub.command({"cmd": "start", "game": game})
                print(f"demo: started a game of {game} with {joined} handsets", flush=True)
            except QuizboxError as exc:
                print(f"demo: cannot start {game}: {exc}", flush=True)
                stop.wait(10)
        stop.wait(0.5)
