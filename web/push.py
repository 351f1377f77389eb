"""Phones are pushed, not polled: a Server-Sent Events stream per phone, kept by waitress's own
event loop, holding no worker thread.

waitress serves a request in one of its few worker threads for as long as the response takes, so an
ordinary streaming response would hold a thread per open phone (40 phones, 8 threads). Here the stream
never reaches a worker: :class:`PushParser` (the channel's request parser, web/connections.py) sees a
complete ``GET /phone/push`` and hands the connection to :class:`PushHub` instead of queueing a task.
From then on the channel is a stream written by waitress's event loop thread only:

* when a phone's screen changes (:meth:`PushHub.notify`, from the phone's MQTT thread) the hub queues the
  phone for its render thread, which renders the phone's new screen (``render``: Flask's own panel template,
  as the page would fetch it, web/phone.py) and wakes the loop (waitress's trigger); the loop's next
  ``writable()`` writes one event, ``data: {"clock": <the web server's clock, ms>, "panel": "<html>"}``, and
  the page shows the panel at once: no request of its own. One thread renders every phone's screen in the
  order they changed (the renders share the interpreter's lock anyway; a thread each would only contend);
  a phone that changes again while queued is rendered once, at its latest. When nothing can be rendered
  (no render, the phone is gone, the page has not yet fetched since the server started) the event carries
  the clock alone and the page fetches ``/phone/panel``, as it does for the first event of a stream;
* every ``keepalive`` seconds an SSE comment keeps the connection from counting as silent
  (``CHANNEL_TIMEOUT``) and lets the page see a dead stream;
* a second stream for the same phone closes the first (a reloaded tab): one stream per phone.

The stream names its phone by handset id and a token, ``HMAC(secret key, handset id)``, that only the page
served to the phone's own cookie carries (web/phone.py): it gives a holder that one phone's screen, what
the page would fetch with the cookie, and nothing of any other phone. Its forms carry the cookie's CSRF
token, which is no use without the cookie itself. The connection is one of the channel's, so
the per-address bound and the header timeout of web/connections.py hold for it as for any request, and
the secret key is the one that signs the session cookie (kept in the instance folder), so a page open
before a ``quizbox web`` restart reconnects to the new process with the token it has.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import parse_qs

from waitress.parser import HTTPRequestParser  # type: ignore[import-untyped]

log = logging.getLogger(__name__)

PUSH_PATH = "/phone/push"
RETRY_MS = 2000  # the browser's wait before it reconnects a dropped stream (EventSource ``retry``)
SWITCH_INTERVAL = 0.001
"""Seconds a thread of the web process runs before another may take the interpreter (Python's default: 5
ms). When the box sends 40 prompts at once, 40 phones' MQTT threads take them in while the render thread
renders their screens one after the other: at 5 ms a turn the render thread waited behind each of them
(the hub's process switches every 1 ms for the same reason, appliance/edge/hub.py)."""
KEEPALIVE_SECONDS = 20.0  # below waitress's CHANNEL_TIMEOUT (60 s) so an open stream never counts as silent


class StreamChannel(Protocol):
    """What the hub needs of a waitress channel that carries a stream (web/connections.py)."""

    server: Any
    will_close: bool

    def push_write(self, data: bytes) -> None: ...


def push_token(secret: bytes | str, handset_id: str) -> str:
    """The token a phone's page opens its stream with: only the page served to that phone's cookie has it."""
    key = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(key, b"quizbox-push:" + handset_id.encode(), hashlib.sha256).hexdigest()[:32]


class PushHub:
    """The open streams, one per phone, and the changes waiting to be written to them."""

    def __init__(self, secret: bytes | str, clock_ms: Callable[[], int] | None = None,
                 keepalive: float = KEEPALIVE_SECONDS, clock: Callable[[], float] = time.monotonic,
                 render: Callable[[str], str | None] | None = None) -> None:
        if sys.getswitchinterval() > SWITCH_INTERVAL:
            sys.setswitchinterval(SWITCH_INTERVAL)
        self._secret = secret
        self.render = render  # a phone's screen as html, or None (then its page fetches it); set by create_app
        self.clock_ms = clock_ms or (lambda: int(time.monotonic() * 1000))  # the phone cores' clock
        self.keepalive = keepalive
        self.clock = clock
        self._lock = threading.Lock()
        self._streams: dict[str, StreamChannel] = {}
        self._due: set[str] = set()  # phones whose screen changed since their stream's last event
        self._ready: dict[str, bytes] = {}  # phones' rendered events, waiting for the loop to write them
        self._queue: dict[str, None] = {}  # phones waiting for the render thread, in the order they changed
        self._wake = threading.Condition(self._lock)
        self._renderer: threading.Thread | None = None
        self._stopped = False
        self.opened = 0  # streams opened since start (the bench and the tests read it)
        self.rendered = 0  # events that carried their panel (the tests read it)

    def token(self, handset_id: str) -> str:
        return push_token(self._secret, handset_id)

    def streaming(self, handset_id: str) -> bool:
        """Whether this phone has a stream open (the phone is on its page: web/phones.py counts it present)."""
        with self._lock:
            return handset_id in self._streams

    def __len__(self) -> int:
        with self._lock:
            return len(self._streams)

    # -- from waitress's loop thread ------------------------------------------------------------------

    def open(self, channel: StreamChannel, query: str) -> str | None:
        """A stream asked for with ``query`` (``phone=<id>&token=<t>``) on ``channel``: the phone's id when the
        token is the phone's (the response head and a first event are written: the page fetches its screen
        once, to catch up), None otherwise (the caller refuses it)."""
        fields = parse_qs(query, max_num_fields=4)
        handset_id = (fields.get("phone") or [""])[0]
        token = (fields.get("token") or [""])[0]
        if not handset_id or not hmac.compare_digest(token, self.token(handset_id)):
            return None
        with self._lock:
            old = self._streams.get(handset_id)
            self._streams[handset_id] = channel
            self._due.discard(handset_id)
            self._ready.pop(handset_id, None)
            self.opened += 1
        if old is not None and old is not channel:
            old.will_close = True  # a reloaded tab: its older stream goes (the loop closes it)
        channel.push_write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
                           b"X-Accel-Buffering: no\r\nConnection: close\r\n\r\n"
                           + f"retry: {RETRY_MS}\n".encode() + self._event())
        return handset_id

    def closed(self, channel: StreamChannel) -> None:
        with self._lock:
            for handset_id, held in list(self._streams.items()):
                if held is channel:
                    del self._streams[handset_id]
                    self._due.discard(handset_id)
                    self._ready.pop(handset_id, None)

    def take(self, channel: StreamChannel, handset_id: str | None) -> bytes | None:
        """The event waiting for ``channel``'s phone, if any (taken: it is written once)."""
        if handset_id is None:
            return None
        with self._lock:
            if self._streams.get(handset_id) is not channel:
                return None
            ready = self._ready.pop(handset_id, None)
            if ready is not None:
                return ready
            if handset_id in self._due:
                self._due.discard(handset_id)
                return self._event()
            return None

    def _event(self, panel: str | None = None) -> bytes:
        fields: dict[str, object] = {"clock": self.clock_ms()}
        if panel is not None:
            fields["panel"] = panel
        return f"data: {json.dumps(fields, separators=(',', ':'))}\n\n".encode()  # one line: json escapes newlines

    # -- from any thread ---------------------------------------------------------------------------------

    def notify(self, handset_id: str) -> None:
        """This phone's screen changed: its stream (if open) gets an event as soon as it is rendered."""
        with self._lock:
            channel = self._streams.get(handset_id)
            if channel is None:
                return
            if self.render is not None and not self._stopped:
                self._queue[handset_id] = None
                self._start_renderer()
                self._wake.notify()
                return
            self._due.add(handset_id)
        self._wake_loop(channel, handset_id)

    def stop(self) -> None:
        """Stop the render thread (the server is stopping)."""
        with self._lock:
            self._stopped = True
            self._wake.notify_all()

    def _start_renderer(self) -> None:  # with the lock held
        if self._renderer is None:
            self._renderer = threading.Thread(target=self._render_loop, name="push-render", daemon=True)
            self._renderer.start()

    def _render_loop(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._stopped:
                    self._wake.wait()
                if self._stopped:
                    return
                handset_id = next(iter(self._queue))
                del self._queue[handset_id]
                render = self.render
            try:
                panel = render(handset_id) if render is not None else None
            except Exception:  # a screen that cannot be rendered: the page fetches it (and sees the error)
                log.exception("push: could not render the screen of %s", handset_id)
                panel = None
            event = self._event(panel)
            with self._lock:
                channel = self._streams.get(handset_id)
                if channel is None:
                    continue
                self._ready[handset_id] = event
                self._due.discard(handset_id)
                self.rendered += panel is not None
            self._wake_loop(channel, handset_id)

    @staticmethod
    def _wake_loop(channel: StreamChannel, handset_id: str) -> None:
        try:
            channel.server.pull_trigger()  # wake waitress's select(): it asks writable() at once
        except OSError:  # the server is stopping: nobody to tell
            log.debug("push: no loop to wake for %s", handset_id)


REFUSED = (b"HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: 16\r\nConnection: close\r\n\r\n"
           b"not your phone\r\n")
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n"
        b"Connection: close\r\n\r\nbusy\r\n")


class PushParser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's request parser, which hands a complete ``GET /phone/push`` to its channel's hub rather
    than to a worker thread (it marks the request ``empty``: waitress then queues no task for it)."""

    empty: bool
    completed: bool
    error: Any
    path: str
    command: str
    query: str

    def __init__(self, adj: Any, channel: Any) -> None:
        super().__init__(adj)
        self.channel = channel

    def received(self, data: bytes) -> int:
        consumed = int(super().received(data))
        if (self.completed and not self.empty and self.error is None and self.path == PUSH_PATH
                and self.command == "GET"):
            self.empty = True  # the channel queues no task for it
            self.channel.start_stream(str(self.query or ""))
        return consumed
