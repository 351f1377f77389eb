"""Bounds on the web server's connections, so one guest on the pub's Wi-Fi cannot hold them all.

waitress bounds connections only in total (``connection_limit``) and closes a connection only when it has
been silent for ``channel_timeout`` seconds: a guest who opens the whole limit's worth and sends a byte
of a request now and then holds every connection, and the admin page and every phone stop answering.
Two bounds close that (docs/security.md, "The admin page"):

* **per address**: a network address holds at most ``CONNECTIONS_PER_ADDRESS`` open connections (a
  browser opens at most 6 to one site); a connection beyond that is closed as soon as it is accepted,
  and logged at most once a minute per address;
* **headers in time**: a request whose headers are not all in ``HEADER_TIMEOUT`` seconds after its first
  byte is closed (waitress has no such setting: its ``channel_timeout`` counts any byte as activity).

Both live in :class:`GuardedChannel`, the server's ``channel_class`` (the attribute waitress's server
builds every accepted connection from, which webtest also replaces). It uses waitress's channel through
its asyncore hooks (``readable``, called by the server loop at least once a second,
``asyncore_loop_timeout``) and the attributes its docstring describes (``request`` being received,
``requests`` being served); waitress's own ``maintenance`` and ``handle_accept`` are left as they are.

The same channel carries the phones' push streams (web/push.py): its request parser hands a complete
``GET /phone/push`` to the channel instead of a worker thread, and the loop thread writes the stream's
events in ``writable()``. A stream is a connection like any other, inside both bounds above.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from waitress.channel import HTTPChannel  # type: ignore[import-untyped]
from waitress.parser import HTTPRequestParser  # type: ignore[import-untyped]
from waitress.server import BaseWSGIServer, create_server  # type: ignore[import-untyped]

from web.push import BUSY, REFUSED, PushHub, PushParser

log = logging.getLogger(__name__)

LOG_EVERY = 60.0  # seconds between two log lines about one address


@dataclass
class ConnectionGuard:
    """The bounds, and when each address was last logged (``clock`` is monotonic seconds)."""

    per_address: int
    header_timeout: float
    clock: Callable[[], float] = time.monotonic
    _logged: dict[tuple[str, str], float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.per_address < 1:
            raise ValueError(f"CONNECTIONS_PER_ADDRESS must be at least 1, not {self.per_address}")
        if self.header_timeout <= 0:
            raise ValueError(f"HEADER_TIMEOUT must be above 0 seconds, not {self.header_timeout}")

    def should_log(self, address: str, what: str) -> bool:
        """True at most once every ``LOG_EVERY`` seconds for one address and one kind of closing."""
        now = self.clock()
        with self._lock:
            for key, at in list(self._logged.items()):  # forget the quiet ones: the table stays small
                if now - at >= LOG_EVERY:
                    del self._logged[key]
            if (address, what) in self._logged:
                return False
            self._logged[(address, what)] = now
            return True


class GuardedChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's HTTP channel, closed at once beyond its address's share, or when its headers are late."""

    guard: ConnectionGuard  # set on the subclass :func:`guard_server` makes
    push_hub: PushHub | None = None  # the phones' streams (web/push.py), when the app has them
    _timed: object | None = None  # the request whose headers are being timed
    _began = 0.0
    _stream: str | None = None  # the phone whose push stream this connection carries
    _wrote = 0.0  # when the stream last had something written (guard clock)

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:  # noqa: A002
        super().__init__(server, sock, addr, adj, map=map)
        address = peer(addr)
        held = sum(1 for channel in list(server.active_channels.values()) if peer(channel.addr) == address)
        if held > self.guard.per_address:  # this one included
            if self.guard.should_log(address, "per-address"):
                log.warning("closed a connection from %s: it already holds %d, the most one address may "
                            "(CONNECTIONS_PER_ADDRESS; logged once a minute per address)", address,
                            self.guard.per_address)
            self.handle_close()

    def parser_class(self, adj: Any) -> Any:  # waitress calls self.parser_class(adj) for each request
        return PushParser(adj, self) if self.push_hub is not None else HTTPRequestParser(adj)

    # -- a phone's push stream (web/push.py): written by this loop thread only ----------------------------

    def start_stream(self, query: str) -> None:
        """The request just parsed is ``GET /phone/push``: this connection becomes the phone's stream (no
        worker thread serves it), or is refused and closed."""
        if self.push_hub is None or self.requests:  # an earlier request still being served: no stream here
            self.push_write(BUSY)
            self.close_when_flushed = True
            return
        handset_id = self.push_hub.open(self, query)
        if handset_id is None:
            self.push_write(REFUSED)
            self.close_when_flushed = True
            return
        self._stream = handset_id

    def push_write(self, data: bytes) -> None:
        with self.outbuf_lock:
            self.outbufs[-1].append(data)
            self.current_outbuf_count += len(data)
            self.total_outbufs_len += len(data)
        self._wrote = self.guard.clock()

    def received(self, data: bytes) -> bool:
        if self._stream is not None:
            return True  # a stream takes no more requests; what its browser sends is dropped
        return bool(super().received(data))

    def writable(self) -> bool:
        hub = self.push_hub
        if self._stream is not None and hub is not None and not self.will_close:
            event = hub.take(self, self._stream)
            if event is not None:
                self.push_write(event)
            elif self.guard.clock() - self._wrote >= hub.keepalive:
                self.push_write(b": still here\n\n")
        return bool(super().writable())

    def handle_close(self) -> None:
        if self._stream is not None and self.push_hub is not None:
            self.push_hub.closed(self)
        super().handle_close()

    def readable(self) -> bool:
        request = self.request
        if request is not None and not request.headers_finished and not self.requests:
            now = self.guard.clock()
            if request is not self._timed:
                self._timed, self._began = request, now
            elif now - self._began > self.guard.header_timeout:
                address = peer(self.addr)
                if self.guard.should_log(address, "headers"):
                    log.warning("closed a connection from %s: its request's headers were not all in after "
                                "%.0f s (HEADER_TIMEOUT; logged once a minute per address)", address,
                                self.guard.header_timeout)
                self.will_close = True  # waitress closes it when the loop next asks writable()
                return False
        return bool(super().readable())


def peer(addr: Any) -> str:
    """The network address of a connection's peer (waitress's ``addr`` is the socket's peer address)."""
    if isinstance(addr, tuple) and addr:
        return str(addr[0])
    return str(addr)


def guard_server(server: Any, guard: ConnectionGuard, push_hub: PushHub | None = None) -> Any:
    """Give every listening server ``create_server`` made (one, or several in a MultiSocketServer) the
    guarded channel class (carrying the phones' push streams when ``push_hub`` is given); returns ``server``."""
    channel_class = type("QuizboxChannel", (GuardedChannel,), {"guard": guard, "push_hub": push_hub})
    listeners = [server] if isinstance(server, BaseWSGIServer) else [
        s for s in server.map.values() if isinstance(s, BaseWSGIServer)]
    if not listeners:
        raise TypeError(f"no waitress listener in {server!r}")
    for listener in listeners:
        listener.channel_class = channel_class
    return server


def waitress_settings(config: Any) -> dict[str, Any]:
    """The waitress adjustments from the app's settings (web/settings.py)."""
    return {
        "threads": int(config["THREADS"]),
        "connection_limit": int(config["CONNECTION_LIMIT"]),
        "channel_timeout": int(config["CHANNEL_TIMEOUT"]),
        "cleanup_interval": int(config["CLEANUP_INTERVAL"]),
        "ident": "quizbox",
    }


def guarded_server(app: Any, host: str, port: int) -> Any:
    """waitress's server for ``app`` on ``host:port`` with the app's connection bounds."""
    server = create_server(app, host=host, port=port, **waitress_settings(app.config))
    guard = ConnectionGuard(int(app.config["CONNECTIONS_PER_ADDRESS"]), float(app.config["HEADER_TIMEOUT"]))
    from web.services import KEY

    services = app.extensions.get(KEY)  # the app's phones' push hub (an app without one: no streams)
    return guard_server(server, guard, getattr(services, "push", None))
