"""Phones pushed, beside handsets over MQTT, in one run (issue 30, 6).

    python bench/phones.py [--phones 40] [--handsets 40] [--buzzes 10] [--questions 3] [--json FILE]

Handsets: ``--handsets`` simulated handsets (the firmware's handset core over its own paho client each, a
process each as a handset is a device of its own: bench/game.py's seats) play ``--buzzes`` buzzer
questions on the appliance (its own process), every handset pressing once at a random moment within
SPREAD s of the arming; input to ack p50 / p99 against the raw broker round trip in the same run: the
same number of clients (a process each) on the same schedule to an echo client in a process of its own,
as the appliance is (bench/game.py's raw table). Goal: at most 1.5x.

Phones: ``--phones`` pages in one headless chromium (a browser context each, as many phones), joined to
the web server (``quizbox web``'s app under waitress, in a process of its own as on the box) on the same
appliance, seated in a Confident? game (started JOINED_SECONDS after the last phone joined), then a
buzzer game. Each page notes, on the machine's wall clock (``performance.timeOrigin +
performance.now()``), when its screen first showed the question and "Buzz now!", and when the event that
carried that screen reached the page; a monitor client subscribed to every handset's prompt topic notes
when the box sent each phone's prompt (its arrival from the broker, one hop after the box's publish).
Push latency is the difference (goal: 150 ms p95). Phone input to ack: from the page's submit of a
range to its screen saying "Locked in". The pages poll every 10 minutes here: what they show was pushed
(each page's own counters are checked). Each push is measured from a room at rest (every page shows its
last screen, then SETTLE_SECONDS): in a pub the quizmaster's next step comes seconds after the last.

The phones share the box's two cores here, where on a night each is a device of its own: chromium runs
in the idle scheduling class (:func:`launch` says why). And the same run measures what 40 pages in this
chromium on these cores cost by themselves: a bare server (an event stream and a page with the phones'
stylesheet, a process of its own) pushes the very screens the phones showed, one after the other from a
room at rest, to as many pages (:func:`bare`): the floor under the phones' figure that no web server
could go below here. With ``BENCH_DEBUG=1`` each push's figures are printed too.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import os
import random
import re
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import game  # noqa: E402  (bench/game.py: seated handsets and raw pingers, a process each; the echo)
import latency  # noqa: E402  (bench/latency.py: the appliance process, the TV)

from appliance.edge.broker import free_port, start_broker  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402
from appliance.infra.config import BoxConfig, BrokerConfig, Config  # noqa: E402
from firmware import protocol  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DECK = HERE.parent / "appliance" / "data" / "decks" / "estimation-art.json"
PUSH_GOAL_MS = 150.0
ACK_GOAL_X = 1.5
SPREAD = 1.0  # s: every handset buzzes once within this of the arming (and pings the echo within it)
NEVER_MS = 600_000
JOINED_SECONDS = 3.0  # after the last phone joined, before the game: each join's clock pings (6 a phone, 100 a
# second in all: 2.4 s for 40) are over, as they are long before a quizmaster starts a game
SETTLE_SECONDS = 0.3  # after every page shows its screen, before the quizmaster's next step (Phones.settle)

# installed in every page: the first wall-clock time each screen was seen (a MutationObserver on the panel)
OBSERVER = """
window.__seen = {};
window.__mark = function (key) {
  if (!(key in window.__seen)) { window.__seen[key] = performance.timeOrigin + performance.now(); }
};
// when an event carrying a screen reached the page (before the page draws it): its arrival at the phone
(function () {
  var Native = window.EventSource;
  if (!Native) { return; }
  window.EventSource = function (url, options) {
    var stream = new Native(url, options);
    stream.addEventListener("message", function (event) {
      var panel = "";
      try { panel = JSON.parse(event.data).panel || ""; } catch (e) { return; }
      var prompt = /data-prompt="([^"]*)"/.exec(panel);
      if (!prompt) { return; }
      if (/name="bottom"/.test(panel)) { window.__mark("arrived-question:" + prompt[1]); }
      if (/class="[^"]*buzz[^"]*armed/.test(panel)) { window.__mark("arrived-armed:" + prompt[1]); }
    });
    return stream;
  };
  window.EventSource.prototype = Native.prototype;
  window.EventSource.CONNECTING = 0; window.EventSource.OPEN = 1; window.EventSource.CLOSED = 2;
})();
document.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("phone");
  if (!root) { return; }
  function look() {
    var panel = root.querySelector(".phone-panel");
    if (!panel) { return; }
    if (root.querySelector("input[name=bottom]")) { window.__mark("question:" + panel.getAttribute("data-prompt")); }
    if (root.querySelector("button.buzz.armed")) { window.__mark("armed:" + panel.getAttribute("data-prompt")); }
    if (/Locked in/.test(panel.textContent)) { window.__mark("locked:" + (window.__submitted || "")); }
  }
  new MutationObserver(look).observe(root, {childList: true, subtree: true});
  root.addEventListener("submit", function () {
    window.__submitted = String(performance.timeOrigin + performance.now());
  }, true);
  look();
});
"""


def pct(values: list[float], q: float) -> float:
    return latency.pct([v / 1000 for v in values], q)  # latency.pct takes seconds and gives ms


def wait(predicate: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.2)  # a look at 40 pages is work for chromium on the same cores: not too often


def handsets(conn: Connection, n: int, questions: int) -> dict[str, Any]:
    """The raw round trips, then the appliance's buzz acks, on the same schedule (bench/game.py's seats and
    raw pingers: a process each, as a handset is a device of its own; the echo in a process of its own, as
    the appliance is)."""
    rng = random.Random(1)
    table = game.RawTable(conn, n, n)
    try:
        raw, raw_lost = table.spread(n, questions, SPREAD, rng)
    finally:
        table.stop()
    latency.release()
    acks, lost = buzzes(conn, n, questions, rng)
    r50, r99, a50, a99 = (latency.pct(raw, 0.5), latency.pct(raw, 0.99), latency.pct(acks, 0.5),
                          latency.pct(acks, 0.99))
    return {"handsets": n, "inputs": len(acks), "raw_p50": r50, "raw_p99": r99, "ack_p50": a50, "ack_p99": a99,
            "x_p50": a50 / r50, "x_p99": a99 / r99, "lost": lost + raw_lost,
            "met": a50 / r50 <= ACK_GOAL_X and a99 / r99 <= ACK_GOAL_X}


def buzzes(conn: Connection, n: int, questions: int, rng: random.Random) -> tuple[list[float], int]:
    """A buzzer round of ``questions`` on the appliance (its own process), ``n`` handsets seated (a process
    each): every handset buzzes once at a random moment within SPREAD s of the arming; each buzz's input
    to ack (s), and how many were lost."""
    box = f"hs{os.getpid()}"
    appliance = latency.Appliance(conn, box)
    tv = latency.Tv(conn, box)
    ids = [f"h{i:03d}" for i in range(n)]
    seats: list[game.Child] = []
    times: list[float] = []
    lost = 0
    try:
        seats = game.start_children("seat", [("--seat", conn.host, str(conn.port), box, hid) for hid in ids])
        tv.wait(lambda t: len(t.state.get("players") or []) == n, f"{n} handsets in the lobby")
        time.sleep(1.0)  # the join bursts of clock pings settle (as in bench/game.py)
        tv.command(cmd="start", game="buzzer", cards=[], options={"settle_ms": 0, "questions": questions + 1})
        for number in range(1, questions + 1):
            tv.wait(lambda t, k=number: t.view.get("number") == k and t.view.get("phase") == "waiting",
                    f"question {number}")
            tv.command(cmd="arm")
            for seat in seats:
                seat.ask(wait=protocol.BUZZ)  # "Buzz now!" on its screen
            asked = []
            for i in game.schedule(n, SPREAD, rng):
                seats[i].send(answer=protocol.BUZZ)
                asked.append(i)
            lost += game.tally([seats[i].answer() for i in asked], times, "buzz")
            tv.command(cmd="close")
            tv.wait(lambda t: t.view.get("phase") == "closed", f"question {number} closed")
            tv.command(cmd="next")
    finally:
        for seat in seats:
            seat.stop()
        tv.stop()
        appliance.stop()
    latency.release()
    return times, lost


def serve_web(host: str, port: int, box: str, data: str, n: int, web_port: int) -> None:
    """``python bench/phones.py --serve-web ...``: ``quizbox web``'s app under waitress on ``web_port`` in a
    process of its own, as on the box (in the bench's process it shared the interpreter with playwright and
    the bench's own looks at 40 pages, which held up its render thread), until stdin closes."""
    from web import ServerThread, create_app

    config = Config(box=BoxConfig(id=box, name="Bench box", data_dir=data), broker=BrokerConfig(host=host, port=port))
    app = create_app({"QUIZBOX_CONFIG": config, "PHONE_POLL_MS": NEVER_MS, "PHONE_PUSHED_POLL_MS": NEVER_MS,
                      "MAX_PHONES": n + 4, "PHONES_PER_ADDRESS": n + 4, "JOINS_PER_ADDRESS": n + 10,
                      "CONNECTIONS_PER_ADDRESS": n * 8 + 20, "CONNECTION_LIMIT": n * 8 + 50})
    server = ServerThread(app, port=web_port).start()
    services = app.extensions["quizbox"]
    wait(services.link.appliance_online, "the web server to hear the appliance")
    print("ready", flush=True)
    sys.stdin.read()
    server.stop()
    services.link.stop()


class WebServer(latency.Appliance):
    """:func:`serve_web` in its process, started, watched and stopped as bench/latency.py's appliance is."""

    def __init__(self, conn: Connection, box: str, data: Path, n: int) -> None:
        self.data, self.n, self.port = data, n, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's greeting would come before "ready"
        super().__init__(conn, box)

    def command(self, conn: Connection, box: str) -> list[str]:
        return [sys.executable, str(Path(__file__).resolve()), "--serve-web", conn.host, str(conn.port), box,
                str(self.data), str(self.n), str(self.port)]


def launch(playwright: Any) -> Any:
    """The bench's headless chromium (the phones' and the bare server's pages alike), in the idle scheduling
    class (SCHED_IDLE, ``chrt --idle``) where the machine has ``chrt``.

    On a pub night the phones are 40 devices, each with its own CPU. Here they share the box's two cores,
    and at an ordinary priority chromium's 40 renderers, woken by the first screens of a push, took the
    cores from the web server in the middle of it: its renders took 2 to 6 times their CPU time in wall
    clock, and at nice 10 the push was still slower (40 renderers outweigh one thread). In the idle class
    chromium runs when the box's processes (and the bench's) leave a core free, as if the phones were
    elsewhere; the phones' own work, receiving and drawing 40 screens, still runs on these two cores, so
    the figures stay on the phones' side of the truth (the bare server's baseline runs in the same class)."""
    chromium = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    chrt = shutil.which("chrt")
    if chromium is not None and chrt is not None:
        chromium = _idle_wrapper(chrt, chromium)
    else:
        print("bench: no chrt here: chromium runs at the box's priority (slower pushes)", file=sys.stderr)
    return playwright.chromium.launch(executable_path=chromium,
                                      args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])


@functools.cache
def _idle_wrapper(chrt: str, chromium: str) -> str:
    """A script that starts ``chromium`` in the idle class (playwright takes an executable, not a command),
    written once a run, in a folder gone when the bench exits."""
    folder = tempfile.TemporaryDirectory(prefix="quizbox-bench-")
    atexit.register(folder.cleanup)
    wrapper = Path(folder.name) / "chromium-idle"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(chrt)} --idle 0 {shlex.quote(chromium)} "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


def new_phone(browser: Any) -> Any:
    """A page in a context of its own (its own cookies: a phone), a phone's screen size, OBSERVER installed."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    context.add_init_script(OBSERVER)
    return context.new_page()


class Phones:
    """The web server (a process of its own) and ``n`` phones in one chromium, on the appliance at ``conn``;
    the quizmaster's commands and the board over MQTT, as the admin page and the TV have them."""

    def __init__(self, conn: Connection, box: str, n: int, data: Path) -> None:
        from playwright.sync_api import sync_playwright

        self.web = WebServer(conn, box, data, n)
        self.url = self.web.url
        self.tv = latency.Tv(conn, box)
        self.playwright = sync_playwright().start()
        self.browser = launch(self.playwright)
        self.sent: dict[tuple[str, str], float] = {}  # (handset id, prompt id) -> when the box sent it (ms)
        self.latest: dict[str, str] = {}  # handset id -> the id of the last prompt the box sent it
        self.monitor = Client(f"bench-monitor-{box}", conn, self._prompt,
                              subscriptions=[f"quizbox/{box}/handset/+/prompt"]).start(wait=30)
        self.names = [f"Phone {i:02d}" for i in range(1, n + 1)]
        self.pages = [self._join(name) for name in self.names]
        # each page's handset id, from its push stream's address (``phone=<id>&token=...``)
        self.ids = [str(page.locator("#phone").get_attribute("data-push")).split("phone=")[1].split("&")[0]
                    for page in self.pages]

    def _join(self, name: str) -> Any:
        page = new_phone(self.browser)
        page.goto(self.url + "/join")
        page.fill("input[name=name]", name)
        page.click("button:has-text('Join the game')")
        page.wait_for_selector(".phone-panel", timeout=30_000)
        return page

    def _prompt(self, topic: str, payload: bytes) -> None:
        now = time.time() * 1000
        try:
            prompt_id = str(json.loads(payload)["id"])
        except (ValueError, KeyError, TypeError):
            return
        self.sent.setdefault((topic.split("/")[3], prompt_id), now)
        self.latest[topic.split("/")[3]] = prompt_id

    def command(self, **command: Any) -> None:
        """Send an admin command as the admin page does (over MQTT)."""
        self.tv.command(**command)

    def all(self, script: str) -> bool:
        """Whether ``script`` (a JS expression) is true on every page."""
        return all(page.evaluate(f"() => Boolean({script})") for page in self.pages)

    def settle(self) -> None:
        """Until every page shows the last prompt the box sent its phone, and a moment more (the room reads
        it): the next push is measured from a room at rest, as in a pub, not behind the last one still
        being drawn by 40 pages on these two cores (the bench's reveal and next question were sent within
        a few ms of each other)."""

        def shown() -> bool:
            return all(page.locator(".phone-panel").get_attribute("data-prompt") == self.latest.get(handset)
                       for handset, page in zip(self.ids, self.pages, strict=True))

        wait(shown, "every phone's screen")
        time.sleep(SETTLE_SECONDS)

    def screen(self) -> str:
        """What the first phone shows now (its screen's html)."""
        return str(self.pages[0].evaluate("() => document.getElementById('phone').innerHTML"))

    def stats(self) -> list[dict[str, Any]]:
        return [page.evaluate("() => Object.assign({}, window.quizboxPhone)") for page in self.pages]

    def stop(self) -> None:
        self.monitor.stop()
        self.tv.stop()
        self.browser.close()
        self.playwright.stop()
        self.web.stop()


def phones(conn: Connection, n: int, questions: int) -> dict[str, Any]:
    box = f"ph{os.getpid()}"
    appliance = latency.Appliance(conn, box)
    data = Path(tempfile.mkdtemp(prefix="quizbox-bench-phones-"))
    room = None
    pushes: list[float] = []
    arrivals: list[float] = []
    acks: list[float] = []
    screens: list[tuple[str, str]] = []  # (kind, a phone's screen) of each push measured: the baseline's
    try:
        room = Phones(conn, box, n, data)
        wait(lambda: room.all("window.quizboxPhone && window.quizboxPhone.pushUp"), f"{n} push streams")
        time.sleep(JOINED_SECONDS)
        cards = json.loads(DECK.read_text())["cards"][:questions]
        # Confident?: each question's prompt, then each phone's range and its ack
        for number in range(questions):
            if number == 0:
                room.command(cmd="start", game="confident", cards=cards, options={"target": 1000})
            else:
                room.command(cmd="next")  # the reveal
                room.settle()
                room.command(cmd="next")  # the next question
            wait(lambda: room.all("document.querySelector('input[name=bottom]')"), "every phone's question")
            pushes += _latest(room, "question:")
            screens.append(("question", room.screen()))
            _debug("question", _latest(room, "question:"), _latest(room, "question:", arrived=True))
            arrivals += _latest(room, "question:", arrived=True)
            for i, page in enumerate(room.pages):
                page.fill("input[name=bottom]", str(i))
                page.fill("input[name=top]", str(i + 10))
                page.click("button:has-text('Lock in')")
            wait(lambda: room.all("/Locked in/.test(document.querySelector('.phone-panel').textContent)"),
                 "every phone's ack")
            for page in room.pages:
                marks = page.evaluate("() => window.__seen")
                submitted = page.evaluate("() => window.__submitted")
                if submitted and f"locked:{submitted}" in marks:
                    acks.append(marks[f"locked:{submitted}"] - float(submitted))
        room.command(cmd="end")
        # the buzzer: "Buzz now!" at each arming
        room.tv.wait(lambda tv: tv.state.get("scene") != "playing", "the game's end")
        room.command(cmd="start", game="buzzer", cards=[], options={"settle_ms": 0, "questions": questions + 1})
        for _ in range(questions):
            room.tv.wait(lambda tv: tv.view.get("phase") == "waiting", "a question")
            room.settle()
            room.command(cmd="arm")
            wait(lambda: room.all("document.querySelector('button.buzz.armed')"), "Buzz now! everywhere")
            pushes += _latest(room, "armed:")
            screens.append(("armed", room.screen()))
            _debug("armed", _latest(room, "armed:"), _latest(room, "armed:", arrived=True))
            arrivals += _latest(room, "armed:", arrived=True)
            room.command(cmd="close")
            room.command(cmd="next")
        stats = room.stats()
        polled = sum(1 for s in stats if s.get("polls"))
        carried, events = sum(s.get("carried", 0) for s in stats), sum(s.get("pushes", 0) for s in stats)
    finally:
        if room is not None:
            room.stop()
        appliance.stop()
        shutil.rmtree(data, ignore_errors=True)
    p95 = pct(pushes, 0.95)
    return {"phones": n, "prompts": len(pushes), "push_p50": pct(pushes, 0.5), "push_p95": p95,
            "arrived_p50": pct(arrivals, 0.5), "arrived_p95": pct(arrivals, 0.95), "carried": carried,
            "events": events,
            "push_max": max(pushes) if pushes else float("nan"), "ack_p50": pct(acks, 0.5),
            "ack_p99": pct(acks, 0.99), "acks": len(acks), "polled": polled, "met": p95 <= PUSH_GOAL_MS and not polled,
            "screens": screens}


def _debug(kind: str, shown: list[float], arrived: list[float]) -> None:
    if os.environ.get("BENCH_DEBUG"):
        print(f"  {kind}: shown p50 {pct(shown, 0.5):.0f} p95 {pct(shown, 0.95):.0f} max {max(shown):.0f}; "
              f"arrived p50 {pct(arrived, 0.5):.0f} p95 {pct(arrived, 0.95):.0f} min {min(arrived):.0f}", flush=True)


def _latest(room: Phones, prefix: str, arrived: bool = False) -> list[float]:
    """Each page's push latency (ms) for the screen it shows now (``prefix``: which kind): from the box
    sending that phone's prompt to the page showing it, or with ``arrived`` to the event that carried it
    reaching the page (a screen the page fetched instead arrived when it was shown)."""
    out = []
    for handset, page in zip(room.ids, room.pages, strict=True):
        prompt = page.locator(".phone-panel").get_attribute("data-prompt")
        marks = page.evaluate("() => window.__seen")
        sent = room.sent.get((handset, str(prompt)))
        key = f"{prefix}{prompt}"
        if arrived and f"arrived-{key}" in marks:
            key = f"arrived-{key}"
        if key in marks and sent is not None:
            out.append(marks[key] - sent)
    return out


# -- the baseline: the same screens pushed to as many pages by a bare server ----------------------------------

BARE_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>bare</title><style>{css}</style></head>
<body class="phone"><main><div id="phone"></div></main>
<script>
var root = document.getElementById("phone"), stream = new EventSource("/stream");
stream.onopen = function () { window.__up = true; };
stream.onmessage = function (event) { root.innerHTML = JSON.parse(event.data).panel; };
</script></body></html>"""


def serve_bare(port: int) -> None:
    """``python bench/phones.py --serve-bare PORT``: the baseline's server, in a process of its own as the web
    server is. ``/`` is a page with the phones' stylesheet whose script shows each event's screen, as the
    phone page does; ``/stream`` an event stream. Each line on stdin (``{"panel": html}``) is written to
    every open stream in one loop, after a line on stdout saying when (wall clock, ms)."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    page = BARE_PAGE.replace("{css}", (HERE.parent / "web" / "static" / "style.css").read_text()).encode()
    streams: list[Any] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path.startswith("/stream"):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(b"retry: 2000\n\n")
                with lock:
                    streams.append(self.wfile)
                threading.Event().wait()  # open until the process ends
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            self.wfile.write(page)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("ready", flush=True)
    for line in sys.stdin:
        event = f"data: {json.dumps({'panel': json.loads(line)['panel']})}\n\n".encode()
        with lock:
            print(json.dumps({"sent": time.time() * 1000}), flush=True)
            for stream in streams:
                stream.write(event)


class BareServer(latency.Appliance):
    """:func:`serve_bare` in its process (started and stopped as the appliance is)."""

    def __init__(self, conn: Connection, box: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        super().__init__(conn, box)

    def command(self, conn: Connection, box: str) -> list[str]:
        return [sys.executable, str(Path(__file__).resolve()), "--serve-bare", str(self.port)]

    def push(self, panel: str) -> float:
        """Push ``panel`` to every page; when the server wrote it (wall clock, ms)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"panel": panel}) + "\n")
        self.proc.stdin.flush()
        return float(json.loads(self.proc.stdout.readline())["sent"])


def bare(conn: Connection, n: int, screens: list[tuple[str, str]]) -> dict[str, Any]:
    """The baseline: ``screens`` (kind, the phone's screen as it showed it) pushed by a bare server to ``n``
    pages in a chromium launched as the phones' is, one after the other from a room at rest as the phones'
    are; from the server's write to the event reaching each page, and to the page showing it (ms)."""
    from playwright.sync_api import sync_playwright

    server = BareServer(conn, "bare")
    playwright = sync_playwright().start()
    arrived: list[float] = []
    shown: list[float] = []
    try:
        browser = launch(playwright)
        pages = [new_phone(browser) for _ in range(n)]
        for page in pages:
            page.goto(server.url)
        wait(lambda: all(page.evaluate("() => window.__up === true") for page in pages), f"{n} bare streams")
        time.sleep(SETTLE_SECONDS)
        for k, (kind, screen) in enumerate(screens):
            prompt = f"bare-{k}"
            sent = server.push(re.sub(r'data-prompt="[^"]*"', f'data-prompt="{prompt}"', screen, count=1))
            wait(lambda p=prompt: all(page.locator(".phone-panel").get_attribute("data-prompt") == p
                                      for page in pages), "every bare page's screen")
            for page in pages:
                marks = page.evaluate("() => window.__seen")
                shown.append(marks[f"{kind}:{prompt}"] - sent)
                arrived.append(marks[f"arrived-{kind}:{prompt}"] - sent)
            _debug(f"bare {kind}", shown[-n:], arrived[-n:])
            time.sleep(SETTLE_SECONDS)
        browser.close()
    finally:
        playwright.stop()
        server.stop()
    return {"pages": n, "pushes": len(screens), "shown_p50": pct(shown, 0.5), "shown_p95": pct(shown, 0.95),
            "arrived_p50": pct(arrived, 0.5), "arrived_p95": pct(arrived, 0.95)}


def main() -> int:
    if len(sys.argv) == 8 and sys.argv[1] == "--serve-web":
        serve_web(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]))
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--serve-bare":
        serve_bare(int(sys.argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=40)
    parser.add_argument("--handsets", type=int, default=40)
    parser.add_argument("--questions", type=int, default=3, help="the phones' questions of each kind (default 3)")
    parser.add_argument("--buzzes", type=int, default=10,
                        help="the handsets' buzzer questions (default 10: with 40 handsets 400 presses, so that a "
                             "p99 is not the second slowest of 120)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    broker = start_broker(prefer="mosquitto")
    conn = Connection(broker.address.host, broker.address.port)
    try:
        hand = handsets(conn, args.handsets, args.buzzes)
        print(f"handsets {hand['handsets']}: buzz input to ack p50 {hand['ack_p50']:.2f} / p99 {hand['ack_p99']:.2f} "
              f"ms; raw round trip p50 {hand['raw_p50']:.2f} / p99 {hand['raw_p99']:.2f} ms; ratio "
              f"{hand['x_p50']:.2f} / {hand['x_p99']:.2f} (goal <= {ACK_GOAL_X:g}); lost {hand['lost']}", flush=True)
        phone = phones(conn, args.phones, args.questions)
        print(f"phones {phone['phones']}: push p50 {phone['push_p50']:.1f} / p95 {phone['push_p95']:.1f} / max "
              f"{phone['push_max']:.1f} ms over {phone['prompts']} prompts (goal p95 <= {PUSH_GOAL_MS:g}), "
              f"the event reaching the page p50 {phone['arrived_p50']:.1f} / p95 {phone['arrived_p95']:.1f} ms; "
              f"{phone['carried']} of {phone['events']} events carried their screen; "
              f"phone input to ack p50 {phone['ack_p50']:.1f} / p99 {phone['ack_p99']:.1f} ms "
              f"({phone['acks']} inputs); pages that polled: {phone['polled']}", flush=True)
        base = bare(conn, args.phones, phone.pop("screens"))
        phone["bare"] = base
        print(f"bare server, the same {base['pushes']} screens to {base['pages']} pages: to the page p50 "
              f"{base['arrived_p50']:.1f} / p95 {base['arrived_p95']:.1f} ms, to the screen p50 "
              f"{base['shown_p50']:.1f} / p95 {base['shown_p95']:.1f} ms", flush=True)
    finally:
        broker.stop()
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "phones", "questions": args.questions, "buzzes": args.buzzes,
                                               "handsets": hand, "phones": phone}, indent=1))
    return 0 if hand["met"] and phone["met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
