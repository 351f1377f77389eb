# The ESP32 handset: config, display, buttons, battery, Wi-Fi and MQTT around the shared handset core.

import gc

from firmware import protocol
from firmware.core import ui
from firmware.core.handset import Handset, PendingFile
from firmware.core.pairing import Pairing, PairingScreen, SecretFile
from firmware.core.seq import SEQ_BLOCK, next_seq_block  # noqa: F401
from firmware.esp32 import config as config_module
from firmware.esp32.link import Link, ticks_add, ticks_diff

BATTERY_MS = 30000  # battery reading (and a screen refresh) this often
TELEMETRY_MS = 60000
LOOP_MS = 5  # the main loop's sleep
WDT_MS = 20000  # the watchdog resets a handset whose loop stops for this long (a step waits at most
# link.CONNECT_TIMEOUT_S twice plus an mDNS query, well below it)
CRASH_MS = 3000  # the crash screen stays this long before the reset
SAFE_FILE = "safe"  # written when Ctrl-C stops the app: the next boot stays at the REPL, no watchdog
REPL_LINES = ["QUIZBOX", "", "app skipped:", "REPL on USB", "", "reset to play"]
STOPPED_LINES = ["QUIZBOX", "", "stopped (Ctrl-C)", "rebooting to", "the REPL..."]
SEQ_FILE = "seq"  # the first seq of this boot (firmware/core/seq.py)
SECRET_FILE = "secret"  # the pairing secret (firmware/core/pairing.py): the broker password once paired
PENDING_FILE = "pending"  # the input sent and not yet acked, so a reset does not lose it


def message(screen, lines):
    """A plain screen for boot and errors."""
    screen.fill(0)
    for i, line in enumerate(lines[:8]):
        screen.text(ui.clean(line)[:16], 0, i * 8, 1)
    show = getattr(screen, "show", None)
    if show is not None:
        show()


def crash_lines(err):
    return ["QUIZBOX", "", "crashed:", type(err).__name__[:16]] + ui.wrap(str(err))[:2] + ["", "restarting..."]


def forever(app, wdt, sleep_ms, running=None, clock=None):
    """The main loop: a step, the watchdog fed, a short sleep. ``running()`` False ends it (tests)."""
    while running is None or running():
        app.step()
        wdt.feed()
        sleep_ms(LOOP_MS)


def skip_app(key_held, path=SAFE_FILE):
    """Whether this boot leaves the board at the REPL, with no app and no watchdog: a key held at power-on
    (the boot escape), or Ctrl-C stopped the app before the reset that brought us here (SAFE_FILE,
    removed here: one boot only; mpremote's soft resets in raw REPL mode never run main.py)."""
    import os

    try:
        os.remove(path)
        return True
    except OSError:
        pass
    return key_held


def to_repl(screen, reset, path=SAFE_FILE):
    """Ctrl-C stopped the app. An ESP32's watchdog cannot be stopped (it would reset the board in the
    middle of an mpremote update), so the board resets now, into one boot without the app (skip_app)."""
    try:
        with open(path, "w") as f:
            f.write("Ctrl-C")
    except OSError:
        pass  # no file: the app starts again; a key held at power-on still skips it
    try:  # noqa: SIM105 - MicroPython has no contextlib
        message(screen, STOPPED_LINES)
    except Exception:  # noqa: BLE001 - no display: reset all the same
        pass
    reset()


def guarded(body, screen, sleep_ms, reset=None):
    """Run ``body``; an exception it lets out is printed, shown for CRASH_MS, then the board resets
    (a frozen screen until someone pulls the battery is the one thing a handset must never do)."""
    try:
        body()
    except Exception as err:  # noqa: BLE001 - KeyboardInterrupt (a BaseException) still reaches the REPL
        import sys

        print_exception = getattr(sys, "print_exception", None)
        if print_exception is not None:
            print_exception(err)
        try:  # noqa: SIM105 - MicroPython has no contextlib
            message(screen, crash_lines(err))
        except Exception:  # noqa: BLE001 - no display: reset all the same
            pass
        sleep_ms(CRASH_MS)
        if reset is None:
            from machine import reset
        reset()


class App:
    def __init__(
        self,
        cfg,
        screen,
        keys,
        battery,
        wifi,
        clock,
        rng=None,
        seq=0,
        secret_file=None,
        urandom=None,
        pending_file=None,
    ):
        """``secret_file``: where the pairing secret is kept, ``pending_file`` the unacked input (None: in
        memory only, as in tests)."""
        self.cfg = cfg
        self.screen = screen
        broker = cfg["broker"]
        wifi.activate()  # before the secret is made: the ESP32's RNG is only truly random with the radio on
        store = SecretFile(secret_file) if secret_file else None
        self.pairing = Pairing(
            cfg["box"], cfg["handset"], broker["username"], broker["password"], cfg["name"], store, urandom
        )
        self.keys = keys
        self.battery = battery
        self.wifi = wifi
        self.clock = clock
        self.link = Link(
            cfg["box"],
            cfg["handset"],
            config_module.broker_host(cfg),
            cfg["broker"]["port"],
            cfg["broker"]["keepalive"],
            clock=clock,
            rng=rng,
            wifi=wifi,
            pairing=self.pairing,
        )
        self.handset = Handset(
            cfg["box"],
            cfg["handset"],
            self.link,
            screen=PairingScreen(screen, self.pairing),
            layout=cfg["layout"],
            clock_ms=clock,
            name=cfg["name"],
            seq=seq,
            keep=PendingFile(pending_file) if pending_file else None,
        )
        self.link.handset = self.handset
        self.next_battery = clock()
        self.next_telemetry = clock()

    def step(self):
        """One pass of the main loop."""
        now = self.clock()
        key = self.keys.poll(now)
        if key is not None:
            self.handset.press(key, getattr(self.keys, "pressed_ms", None))
        self.link.poll()
        self.handset.tick()
        now = self.clock()
        if ticks_diff(now, self.next_battery) >= 0:
            self.next_battery = ticks_add(now, BATTERY_MS)
            try:
                self.handset.battery = self.battery.percent()
            except OSError:
                self.handset.battery = None  # the ADC did not answer: shown as unknown
            self.handset.render()
        refresh = getattr(self.screen, "refresh", None)
        if refresh is not None:
            refresh()  # a display that stopped answering gets the current frame once it is back
        if self.handset.online and ticks_diff(now, self.next_telemetry) >= 0:
            self.next_telemetry = ticks_add(now, TELEMETRY_MS)
            self.handset.rssi = self.wifi.rssi()
            try:  # noqa: SIM105 - MicroPython has no contextlib
                self.handset.telemetry()
            except OSError:
                pass  # the link notices on its next poll


def run(path="config.json"):  # pragma: no cover - run under MicroPython on the stubs (tests/firmware/mpy/faults.py)
    """The handset: boot screen, config, hardware, then the guarded, watched main loop."""
    import random
    import time

    import machine

    from firmware.esp32.battery import Battery
    from firmware.esp32.keys import Buttons, Keypad
    from firmware.esp32.ssd1306 import SSD1306_I2C
    from firmware.esp32.wifi import Wifi, hostname_for

    i2c = machine.I2C(0, sda=machine.Pin(21), scl=machine.Pin(22), freq=400000)
    screen = SSD1306_I2C(i2c)
    message(screen, ["QUIZBOX", "starting..."])
    try:
        cfg = config_module.load(path, machine.unique_id())
    except config_module.ConfigError as err:
        message(screen, ["CONFIG ERROR"] + ui.wrap(str(err)))
        return  # no watchdog yet: the message stays, the REPL is reachable to fix the file
    pins = cfg["pins"]
    if (pins["sda"], pins["scl"]) != (21, 22):
        i2c = machine.I2C(0, sda=machine.Pin(pins["sda"]), scl=machine.Pin(pins["scl"]), freq=400000)
        screen = SSD1306_I2C(i2c)
    five = cfg["layout"] == protocol.LAYOUT_FIVE
    keys = Buttons(pins["buttons"]) if five else Keypad(pins["rows"], pins["cols"])
    if skip_app(keys.scan() is not None):
        message(screen, REPL_LINES)
        return  # no watchdog: the REPL and mpremote have the board

    def main():
        battery = Battery(pins["battery"], cfg["battery_divider"])
        wifi = Wifi(cfg["wifi"]["ssid"], cfg["wifi"]["password"], hostname=hostname_for(cfg["handset"]))
        message(screen, ["QUIZBOX", "Wi-Fi " + cfg["wifi"]["ssid"][:10], cfg["handset"]])
        seq = next_seq_block(SEQ_FILE)
        app = App(cfg, screen, keys, battery, wifi, time.ticks_ms, random, seq, SECRET_FILE, pending_file=PENDING_FILE)
        gc.collect()
        wdt = machine.WDT(timeout=WDT_MS)
        forever(app, wdt, time.sleep_ms)

    try:
        guarded(main, screen, time.sleep_ms, machine.reset)
    except KeyboardInterrupt:  # Ctrl-C at the REPL (a BaseException: guarded lets it through)
        to_repl(screen, machine.reset)
