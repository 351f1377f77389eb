"""The Pi Zero handset: config, display, buttons, battery and MQTT around the shared handset core."""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from pathlib import Path
from typing import Any

from firmware import protocol
from firmware.core.handset import Handset, PendingFile
from firmware.core.pairing import Pairing, PairingScreen, SecretFile
from firmware.core.seq import next_seq_block
from firmware.pizero.display import Screen
from firmware.pizero.mqtt import Link

log = logging.getLogger(__name__)

BATTERY_S = 30.0
TELEMETRY_S = 60.0
SECRET_FILE = "secret"  # in the --state folder: the pairing secret, the broker password once paired
PENDING_FILE = "pending"  # in the --state folder: the input sent and not yet acked (outlives a restart)


class PrivateSecretFile(SecretFile):
    """The secret file, readable by its owner only."""

    def save(self, secret: str) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secret)


class App:
    """``keys``: an object with an ``events`` queue of key names; ``battery``: ``percent()`` or None;
    ``state``: the folder keeping the pairing secret and the unacked input (None: in memory only)."""

    def __init__(
        self,
        cfg: dict[str, Any],
        host: str,
        port: int,
        device: Any,
        keys: Any,
        battery: Any,
        seq: int = 0,
        state: Path | None = None,
        find: Any = None,
    ) -> None:
        self.cfg = cfg
        self.keys = keys
        self.battery = battery
        self.lock = threading.RLock()
        broker = cfg["broker"]
        store = PrivateSecretFile(str(state / SECRET_FILE)) if state is not None else None
        self.pairing = Pairing(cfg["box"], cfg["handset"], broker["username"], broker["password"], cfg["name"], store)
        self.link = Link(cfg["box"], cfg["handset"], host, port, broker["keepalive"], self.lock, self.pairing, find)
        self.handset = Handset(
            cfg["box"],
            cfg["handset"],
            self.link,
            screen=PairingScreen(Screen(device), self.pairing),
            layout=cfg["layout"],
            name=cfg["name"],
            seq=seq,
            keep=PendingFile(str(state / PENDING_FILE)) if state is not None else None,
        )
        self.link.handset = self.handset
        self.stopping = threading.Event()

    def run(self) -> None:
        """Until stop(): keys into the handset, re-sends, battery and telemetry."""
        self.link.start()
        next_battery = next_telemetry = 0.0
        try:
            while not self.stopping.is_set():
                try:
                    key = self.keys.events.get(timeout=0.05)
                except queue.Empty:
                    key = None
                with self.lock:
                    if key is not None:
                        self.handset.press(key)
                    self.handset.tick()
                now = time.monotonic()
                if self.battery is not None and now >= next_battery:
                    next_battery = now + BATTERY_S
                    level = self.battery.percent()
                    with self.lock:
                        self.handset.battery = level
                        self.handset.render()
                if now >= next_telemetry and self.handset.online:
                    next_telemetry = now + TELEMETRY_S
                    with self.lock:
                        try:
                            self.handset.telemetry()
                        except OSError:
                            log.info("telemetry not sent: offline")
        finally:
            self.link.stop()
            self.keys.close()

    def stop(self) -> None:
        self.stopping.set()


def build(cfg: dict[str, Any], state_dir: Path, simulate: bool = False) -> App:
    """The app on real hardware, or with gpiozero's MockFactory and luma's dummy device (``simulate``)."""
    from firmware.pizero import config as config_module
    from firmware.pizero.battery import Battery
    from firmware.pizero.buttons import FiveButtons, Keypad
    from firmware.pizero.display import ssd1306

    pins = cfg["pins"]
    if simulate:
        from gpiozero.pins.mock import MockFactory
        from luma.core.device import dummy

        factory: Any = MockFactory()
        device = dummy(width=128, height=64, mode="1")
        battery = None
    else:
        factory = None
        device = ssd1306(pins["i2c_port"])
        battery = Battery.mcp3008(pins["battery"], cfg["battery_divider"]) if pins["battery"] is not None else None
    if cfg["layout"] == protocol.LAYOUT_FIVE:
        keys: Any = FiveButtons(pins["buttons"], factory)
    else:
        keys = Keypad(pins["rows"], pins["cols"], factory)
    host, port = config_module.find_broker(cfg)
    state_dir.mkdir(parents=True, exist_ok=True)
    seq = next_seq_block(str(state_dir / "seq"))
    return App(cfg, host, port, device, keys, battery, seq, state_dir, lambda: config_module.find_broker(cfg))
