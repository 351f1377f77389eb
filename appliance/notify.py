"""Tell systemd how the service is doing (``sd_notify``); every call is a no-op outside systemd.

Written against the documented datagram protocol (``man sd_notify``) with the standard library rather than
a PyPI package: one ``AF_UNIX`` datagram per message to ``$NOTIFY_SOCKET`` (a path, or ``@name`` for the
abstract namespace). ``quizbox.service`` is ``Type=notify`` with ``WatchdogSec=``: systemd waits for
:func:`ready` before it counts the box as started, and restarts it when :func:`watchdog` stops arriving.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


def notify(message: str) -> bool:
    """Send ``message`` (``KEY=value`` lines) to systemd; False when not under systemd or on failure."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("could not notify systemd at %s: %s", os.environ.get("NOTIFY_SOCKET"), exc)
        return False
    return True


def ready(status: str = "") -> bool:
    """The service is up: systemd stops waiting and starts the units ordered after it."""
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def status(text: str) -> bool:
    """A one-line status that ``systemctl status quizbox`` shows."""
    return notify(f"STATUS={text}")


def stopping() -> bool:
    """The service is shutting down on purpose (not a crash)."""
    return notify("STOPPING=1")


def watchdog() -> bool:
    """'Still alive': must arrive at least every ``WatchdogSec``, or systemd restarts the service."""
    return notify("WATCHDOG=1")


def watchdog_interval() -> float | None:
    """How often to call :func:`watchdog` (half of ``WatchdogSec``), or None when no watchdog is set.

    Like ``sd_watchdog_enabled``: ``$WATCHDOG_PID``, when set, must be this process.
    """
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None
    return int(usec) / 1e6 / 2


class Heartbeat:
    """:func:`watchdog` at most once per interval: cheap to call from every pass of a busy loop."""

    def __init__(self, interval: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = watchdog_interval() if interval is None else interval
        self._monotonic = clock
        self._last = float("-inf")

    def beat(self) -> bool:
        """Ping the watchdog if one is set and the interval has passed; True when a ping was sent."""
        if self.interval is None:
            return False
        now = self._monotonic()
        if now - self._last < self.interval:
            return False
        self._last = now
        return watchdog()
