"""``quizbox``: the appliance's one command.

    quizbox demo            broker, session, board, admin page and four bot handsets on this machine
    quizbox run             the appliance as configured (what systemd starts on the Pi)
    quizbox web             the admin page alone
    quizbox handset-sim     simulated handsets against a running appliance
    quizbox replay FILE     play a scenario file through the rules engines
    quizbox league ...      a league box (serve, invite, plan) or joining this box to one (join)
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable, Sequence

from appliance.errors import QuizboxError


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "replay":
        from appliance.box.replay_cli import main as replay_main

        code: int = replay_main(args_list[1:])
        return code
    parser = _parser()
    args = parser.parse_args(args_list)
    from appliance.box.notify import configure_logging

    configure_logging(args.verbose)  # journald priorities under systemd, plain lines in a terminal
    try:
        result: int = args.func(args)
        return result
    except QuizboxError as exc:
        print(f"quizbox: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizbox", description="Quizbox pub-quiz appliance")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    demo = sub.add_parser("demo", help="run everything on this machine with simulated handsets")
    demo.add_argument("--config", help="config file (default: built-in demo settings)")
    demo.add_argument("--bots", type=int, default=4, help="simulated handsets (default 4)")
    demo.add_argument("--game", default="confident", help="game the bots play (default confident)")
    demo.add_argument("--broker", choices=["auto", "mosquitto", "amqtt"], default="auto")
    demo.add_argument("--seconds", type=float, default=0, help="stop after this many seconds (0: Ctrl-C)")
    demo.add_argument("--headless", action="store_true", help="no board window even with a display")
    demo.add_argument("--snapshot", help="save the board's last frame to this PNG when the demo stops")
    demo.set_defaults(func=_demo)

    run = sub.add_parser("run", help="run the appliance as configured")
    run.add_argument("--config", help="config file (default $QUIZBOX_CONFIG or /etc/quizbox/quizbox.toml)")
    run.set_defaults(func=_run)

    doctor = sub.add_parser("doctor", help="check this box and say in plain words what is wrong")
    doctor.add_argument("--config", help="config file (default $QUIZBOX_CONFIG or /etc/quizbox/quizbox.toml)")
    doctor.set_defaults(func=_doctor)

    web = sub.add_parser("web", help="run the admin page")
    web.add_argument("--config")
    web.set_defaults(func=_web)

    sim = sub.add_parser("handset-sim", help="simulated handsets against a running appliance")
    sim.add_argument("--host", default="127.0.0.1")
    sim.add_argument("--port", type=int, default=1883)
    sim.add_argument("--box", default="quizbox")
    sim.add_argument("-n", "--count", type=int, default=4)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--show", action="store_true",
                     help="one more handset, yours: its screen in the terminal, pressed from the keyboard")
    sim.add_argument("--png", help="with --show: also draw its screen to this PNG file")
    sim.add_argument("--state", help="keep the handsets' secrets here (default ~/.local/state/quizbox-sim); each "
                     "logs in with an account of its own and, until it has one, asks to be paired")
    sim.add_argument("--anonymous", action="store_true", help="no accounts (a broker that lets anyone in)")
    sim.set_defaults(func=_handset_sim)

    league = sub.add_parser("league", help="a league box, or joining this box to a league (docs/league.md)")
    _league_parser(league)

    replay = sub.add_parser("replay", help="play a scenario file (see docs)")
    replay.add_argument("rest", nargs=argparse.REMAINDER)
    return parser


def _league_parser(league: argparse.ArgumentParser) -> None:
    sub = league.add_subparsers(required=True, metavar="ACTION")
    data = "the league box's folder (its store, CA, broker accounts; default /var/lib/quizbox-league)"
    serve = sub.add_parser("serve", help="run the league box: its broker, its service and its web page")
    serve.add_argument("--data", default="/var/lib/quizbox-league", help=data)
    serve.add_argument("--name", action="append", required=True,
                       help="host name or address members reach the league at (repeat for more; the first is "
                            "the one join codes give)")
    serve.add_argument("--tls-port", type=int, default=8883, help="members' TLS port (default 8883)")
    serve.add_argument("--local-port", type=int, default=1884, help="the service's loopback port (default 1884)")
    serve.add_argument("--web-host", default="0.0.0.0", help="the web page's address (default all)")
    serve.add_argument("--web-port", type=int, default=8090, help="the web page's port (default 8090)")
    serve.add_argument("--seconds", type=float, default=0, help="stop after this many seconds (0: Ctrl-C)")
    serve.set_defaults(func=_league_serve)
    invite = sub.add_parser("invite", help="a one-time join code for a member box")
    invite.add_argument("box", help="the member box's id (its quizbox.toml [box] id)")
    invite.add_argument("--data", default="/var/lib/quizbox-league", help=data)
    invite.add_argument("--url", required=True, help="the league page's address members reach, e.g. "
                                                     "http://league.example:8090")
    invite.set_defaults(func=_league_invite)
    plan = sub.add_parser("plan", help="send a league plan (JSON: plan, title, rounds, cards) to every member")
    plan.add_argument("file")
    plan.add_argument("--data", default="/var/lib/quizbox-league", help=data)
    plan.set_defaults(func=_league_plan)
    join = sub.add_parser("join", help="join this box to a league with the league's one-time code")
    join.add_argument("address", help="the league broker's host[:port] (port default: the league's answer)")
    join.add_argument("code", help="the join code from the league box (QBL1-...)")
    join.add_argument("--root", default="/", help="the installed system's root (default /)")
    join.set_defaults(func=_league_join)


def _league_serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    from appliance.box.league_box import LeagueBox

    stop = stop_event(args.seconds)
    with LeagueBox(Path(args.data), args.name, args.tls_port, args.local_port, args.web_host,
                   args.web_port).start() as box:
        print(f"quizbox league: table on {box.url}/, members connect to {args.name[0]}:{args.tls_port}",
              flush=True)
        stop.wait()
    return 0


def _league_invite(args: argparse.Namespace) -> int:
    from pathlib import Path

    from appliance.box.league_box import invite

    code = invite(Path(args.data), args.box, args.url)
    print(f"join code for {args.box} (works once):\n{code.text()}", flush=True)
    return 0


def _league_plan(args: argparse.Namespace) -> int:
    from pathlib import Path

    from appliance.box.league_box import publish_plan

    plan = publish_plan(Path(args.data), Path(args.file))
    print(f"quizbox league: plan {plan['plan']} ({len(plan['rounds'])} rounds) sent to every member", flush=True)
    return 0


def _league_join(args: argparse.Namespace) -> int:
    from pathlib import Path

    from appliance.box.league_box import installer

    for line in installer().join_with_code(Path(args.root), args.address, args.code):
        print(f"quizbox league: {line}", flush=True)
    return 0


def stop_event(seconds: float = 0) -> threading.Event:
    """An event set by Ctrl-C, SIGTERM (systemd's stop) or, if ``seconds`` > 0, after that long."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    if seconds > 0:
        timer = threading.Timer(seconds, stop.set)
        timer.daemon = True
        timer.start()
    return stop


def _wait(seconds: float) -> None:
    stop_event(seconds).wait()


def _demo(args: argparse.Namespace) -> int:
    from appliance.box.demo import run_demo

    return run_demo(args, stop_event(args.seconds))


def _run(args: argparse.Namespace) -> int:
    from appliance.box import notify
    from appliance.box.app import Appliance
    from appliance.infra.config import load_config

    config = load_config(args.config)
    stop = stop_event()
    with Appliance(config) as app:
        app.start()
        if config.broker.host in ("", "localhost", "127.0.0.1"):  # handsets find this box by mDNS
            app.advertise()  # optional: retried in the background, never stops the game
        notify.ready(f"box {config.box.id} running")
        watchdog = threading.Thread(target=_watchdog, args=(app, stop), name="watchdog", daemon=True)
        watchdog.start()
        print(f"quizbox: box {config.box.id!r} running (config {config.source})", flush=True)
        try:
            app.run_board(stop)  # the board on the main thread until stopped
        finally:
            notify.stopping()
    return 0


def _watchdog(app: object, stop: threading.Event) -> None:
    """systemd's watchdog is fed only while the hub's clock thread runs and its lock is not stuck, so a
    hung appliance is restarted (Restart=on-failure in quizbox.service)."""
    from appliance.box.notify import Heartbeat

    heart = Heartbeat()
    if heart.interval is None:
        return
    while not stop.wait(min(heart.interval, 5.0)):
        hub = getattr(app, "hub", None)
        if hub is None or not hub.alive():
            continue
        if hub.outbox.acquire(timeout=heart.interval):
            hub.outbox.release()
            heart.beat()


def _doctor(args: argparse.Namespace) -> int:
    from appliance.box.doctor import main as doctor_main

    return doctor_main(args)


def _web(args: argparse.Namespace) -> int:
    try:
        from web import serve
    except ImportError:
        print("quizbox: the admin page is not part of this build yet", file=sys.stderr)
        return 2
    serve(args)
    return 0


def _handset_sim(args: argparse.Namespace) -> int:
    from appliance.box.sim import SimHandset, start_bots
    from appliance.edge.mqtt import Connection

    connection = Connection(args.host, args.port)
    accounts: Callable[[str, str], Connection] | None = None
    if not args.anonymous:
        from pathlib import Path

        from appliance.box.sim import own_account

        state = Path(args.state or Path.home() / ".local/state/quizbox-sim") / args.box

        def say(handset_id: str, code: str) -> None:
            print(f"quizbox: {handset_id} asks to be paired: accept it on the admin page with code {code}",
                  flush=True)

        def own(handset_id: str, name: str) -> Connection:
            return own_account(args.box, handset_id, name, args.host, args.port, state, say)

        accounts = own

    bots = start_bots(args.box, connection, args.count, seed=args.seed, accounts=accounts)
    print(f"quizbox: {len(bots)} simulated handsets on {args.host}:{args.port}, box {args.box!r}", flush=True)
    if args.show:  # a handset the developer plays: no bot seed, keys from stdin
        from firmware.pizero.terminal import attach

        yours = accounts("you", "You") if accounts is not None else connection
        mine = SimHandset(args.box, "you", yours, name="You").start()
        bots.append(mine)
        attach(mine.core, mine.changed, sys.stdout, png=args.png, keys=sys.stdin)
    try:
        _wait(0)
    finally:
        for bot in bots:
            bot.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
