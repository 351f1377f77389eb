"""``python -m firmware.pizero``: run a Pi Zero handset (docs/hardware.md)."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from pathlib import Path

from firmware.pizero import config as config_module
from firmware.pizero.app import build


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware.pizero", description="Quizbox Pi Zero handset")
    parser.add_argument("--config", default="/etc/quizbox/handset.json")
    parser.add_argument(
        "--state", default="/var/lib/quizbox-handset", help="folder for the seq counter and the pairing secret"
    )
    parser.add_argument("--simulate", action="store_true", help="mock pins and a dummy display (no hardware)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        cfg = config_module.load(args.config)
    except config_module.ConfigError as err:
        print(f"quizbox handset: {args.config}: {err}", file=sys.stderr)
        return 2
    app = build(cfg, Path(args.state), simulate=args.simulate)
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: app.stop())
    print(f"quizbox handset {cfg['handset']} of box {cfg['box']} -> {app.link.host}:{app.link.port}", flush=True)
    app.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
