"""appliance.box.notify: the sd_notify datagrams systemd reads, the watchdog interval, journald priorities."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from appliance.box import notify


@pytest.fixture
def systemd_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    """A datagram socket standing in for systemd's, named in $NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_ready_status_watchdog_and_stopping_reach_systemd(systemd_socket: socket.socket) -> None:
    assert notify.ready("box pub running")
    assert systemd_socket.recv(4096) == b"READY=1\nSTATUS=box pub running"
    assert notify.watchdog()
    assert systemd_socket.recv(4096) == b"WATCHDOG=1"
    assert notify.status("2 handsets")
    assert systemd_socket.recv(4096) == b"STATUS=2 handsets"
    assert notify.stopping()
    assert systemd_socket.recv(4096) == b"STOPPING=1"


def test_abstract_namespace_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"quizbox-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.ready()
        assert sock.recv(4096) == b"READY=1"


def test_outside_systemd_every_call_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify.ready()
    assert not notify.watchdog()
    assert not notify.stopping()


def test_a_vanished_socket_is_logged_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    with caplog.at_level(logging.WARNING, logger="appliance.box.notify"):
        assert not notify.watchdog()
    assert "could not notify systemd" in caplog.text


@pytest.mark.parametrize(
    ("usec", "pid", "expected"),
    [
        ("30000000", None, 15.0),  # WatchdogSec=30: ping every 15 s
        ("30000000", "self", 15.0),
        ("30000000", "1", None),  # meant for another process (sd_watchdog_enabled does the same)
        ("0", None, None),
        ("", None, None),
        ("soon", None, None),
    ],
)
def test_watchdog_interval_is_half_of_watchdog_sec(
    monkeypatch: pytest.MonkeyPatch, usec: str, pid: str | None, expected: float | None
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    if pid is None:
        monkeypatch.delenv("WATCHDOG_PID", raising=False)
    else:
        monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()) if pid == "self" else pid)
    assert notify.watchdog_interval() == expected


def test_heartbeat_pings_at_most_once_per_interval(systemd_socket: socket.socket) -> None:
    now = [100.0]
    beat = notify.Heartbeat(interval=15.0, clock=lambda: now[0])
    assert beat.beat()
    now[0] += 14.9
    assert not beat.beat()
    now[0] += 0.1
    assert beat.beat()
    systemd_socket.settimeout(0.2)
    assert [systemd_socket.recv(64), systemd_socket.recv(64)] == [b"WATCHDOG=1", b"WATCHDOG=1"]
    with pytest.raises(TimeoutError):
        systemd_socket.recv(64)


def test_heartbeat_without_a_watchdog_sends_nothing(
    systemd_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    beat = notify.Heartbeat()
    assert beat.interval is None
    assert not beat.beat()
    systemd_socket.settimeout(0.2)
    with pytest.raises(TimeoutError):
        systemd_socket.recv(64)


def test_journal_lines_carry_the_syslog_priority_on_every_line() -> None:
    formatter = notify.JournalFormatter()
    record = logging.LogRecord("appliance.edge.hub", logging.WARNING, __file__, 1, "handset %s refused", ("h1",), None)
    assert formatter.format(record) == "<4>appliance.edge.hub: handset h1 refused"
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        error = logging.LogRecord("appliance.edge.hub", logging.ERROR, __file__, 1, "tick failed", (), sys.exc_info())
    lines = formatter.format(error).splitlines()
    assert len(lines) > 2 and all(line.startswith("<3>") for line in lines)
    assert lines[-1] == "<3>ValueError: boom"


@pytest.mark.parametrize(
    ("level", "priority"),
    [(logging.DEBUG, 7), (logging.INFO, 6), (logging.WARNING, 4), (logging.ERROR, 3), (logging.CRITICAL, 2)],
)
def test_syslog_priorities(level: int, priority: int) -> None:
    assert notify.syslog_priority(level) == priority


def test_under_journald_only_when_journal_stream_is_our_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    err = open(tmp_path / "stderr", "w")  # noqa: SIM115
    try:
        monkeypatch.setattr("sys.stderr", err)
        st = os.fstat(err.fileno())
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino}")
        assert notify.under_journald()
        monkeypatch.setenv("JOURNAL_STREAM", f"{st.st_dev}:{st.st_ino + 1}")  # stderr was redirected
        assert not notify.under_journald()
        monkeypatch.delenv("JOURNAL_STREAM")
        assert not notify.under_journald()
    finally:
        err.close()


@pytest.mark.parametrize(("journal", "formatter"), [(True, notify.JournalFormatter), (False, logging.Formatter)])
def test_configure_logging_picks_the_journal_format_under_systemd(
    monkeypatch: pytest.MonkeyPatch, journal: bool, formatter: type[logging.Formatter]
) -> None:
    root = logging.getLogger()
    saved = (root.handlers[:], root.level)
    monkeypatch.setattr(notify, "under_journald", lambda: journal)
    try:
        notify.configure_logging(verbose=True)
        assert root.level == logging.DEBUG
        assert [type(h.formatter) for h in root.handlers] == [formatter]
    finally:
        root.handlers[:], root.level = saved[0], saved[1]
