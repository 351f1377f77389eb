"""Tell systemd how the service is doing (``sd_notify``); every call is a no-op outside systemd.

Written against the documented datagram protocol (``man sd_notify``) with the standard library rather than
a PyPI package: one ``AF_UNIX`` datagram per message to ``$NOTIFY_SOCKET`` (a path, or ``@name`` for the
abstract namespace). ``quizbox.service`` is ``Type=notify`` with ``WatchdogSec=``: systemd waits for
:func:`ready` before it counts the box as started, and restarts it when :func:`watchdog` stops arriving.

:func:`configure_logging` gives journald each line's level, so ``journalctl -p warning`` works.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
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


# -- logs for journald -------------------------------------------------------------------------------

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def under_journald() -> bool:
    """True when stderr is connected to the journal (``$JOURNAL_STREAM`` names its device:inode)."""
    dev, _, ino = os.environ.get("JOURNAL_STREAM", "").partition(":")
    if not (dev.isdigit() and ino.isdigit()):
        return False
    try:
        st = os.fstat(sys.stderr.fileno())
    except (OSError, ValueError):
        return False
    return (st.st_dev, st.st_ino) == (int(dev), int(ino))


def syslog_priority(levelno: int) -> int:
    """The syslog priority of a logging level: error 3, warning 4, info 6, debug 7, critical 2."""
    if levelno >= logging.CRITICAL:
        return 2
    if levelno >= logging.ERROR:
        return 3
    if levelno >= logging.WARNING:
        return 4
    if levelno >= logging.INFO:
        return 6
    return 7


class JournalFormatter(logging.Formatter):
    """``<4>name: message`` on every line: journald takes the priority from the prefix
    (``SyslogLevelPrefix=``, on by default), so ``journalctl -u quizbox -p warning`` shows only the
    problems, tracebacks included; journald stamps the time itself."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def configure_logging(verbose: bool = False) -> None:
    """Log to stderr: priority-prefixed lines under journald, time-stamped lines elsewhere."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JournalFormatter() if under_journald() else logging.Formatter(PLAIN_FORMAT))
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[handler], force=True)
