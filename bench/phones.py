"""Phones pushed, beside handsets over MQTT, in one run (issue 30, 6).

    python bench/phones.py [--phones 40] [--handsets 40] [--questions 3] [--json FILE]

Handsets: ``--handsets`` simulated handsets (bench/latency.py's: the firmware's handset core over its own
paho client each) play buzzer questions on the appliance (its own process), every handset pressing once
within a second of the arming; input to ack p50 / p99 against the raw broker round trip of the same
clients and schedule to an echo client, in the same run (goal: at most 1.5x).

Phones: ``--phones`` pages in one headless chromium (a browser context each, as many phones), joined to
the web server (``quizbox web``'s app under waitress, in a process of its own as on the box) on the same
appliance, seated in
a Confident? game, then a buzzer game. Each page notes, on the machine's wall clock
(``performance.timeOrigin + performance.now()``), when its screen first showed the question and "Buzz
now!"; a monitor client subscribed to every handset's prompt topic notes when the box sent each phone's
prompt (its arrival from the broker, one hop after the box's publish). Push latency is the difference:
the web server's phone link, the push stream and the page's fetch of its screen (goal: 150 ms p95).
Phone input to ack: from the page's submit of a range to its screen saying "Locked in". The pages
poll every 10 minutes here: what they show was pushed (each page's own counters are checked). Each push
is measured from a room at rest (every page shows its last screen, then 0.3 s): in a pub the quizmaster's
next step comes seconds after the last. With ``BENCH_DEBUG=1`` each question's figures are printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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

import latency  # noqa: E402  (bench/latency.py: the handsets, the appliance process, the raw baseline)

from appliance.edge.broker import free_port, start_broker  # noqa: E402
from appliance.edge.mqtt import Client, Connection  # noqa: E402
from appliance.infra.config import BoxConfig, BrokerConfig, Config  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DECK = HERE.parent / "appliance" / "data" / "decks" / "estimation-art.json"
PUSH_GOAL_MS = 150.0
ACK_GOAL_X = 1.5
NEVER_MS = 600_000
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
    rng = random.Random(1)
    raw, raw_lost = latency.raw_round_trips(conn, n, questions, 1.0, rng)
    latency.release()
    acks, _, lost = latency.appliance_latency(conn, n, questions, 1.0, rng)
    latency.release()
    r50, r99, a50, a99 = (latency.pct(raw, 0.5), latency.pct(raw, 0.99), latency.pct(acks, 0.5),
                          latency.pct(acks, 0.99))
    return {"handsets": n, "inputs": len(acks), "raw_p50": r50, "raw_p99": r99, "ack_p50": a50, "ack_p99": a99,
            "x_p50": a50 / r50, "x_p99": a99 / r99, "lost": lost + raw_lost,
            "met": a50 / r50 <= ACK_GOAL_X and a99 / r99 <= ACK_GOAL_X}


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


class Phones:
    """The web server (a process of its own) and ``n`` phones in one chromium, on the appliance at ``conn``;
    the quizmaster's commands and the board over MQTT, as the admin page and the TV have them."""

    def __init__(self, conn: Connection, box: str, n: int, data: Path) -> None:
        from playwright.sync_api import sync_playwright

        self.web = WebServer(conn, box, data, n)
        self.url = self.web.url
        self.tv = latency.Tv(conn, box)
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
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
        context = self.browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        context.add_init_script(OBSERVER)
        page = context.new_page()
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
    try:
        room = Phones(conn, box, n, data)
        wait(lambda: room.all("window.quizboxPhone && window.quizboxPhone.pushUp"), f"{n} push streams")
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
            "ack_p99": pct(acks, 0.99), "acks": len(acks), "polled": polled, "met": p95 <= PUSH_GOAL_MS and not polled}


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


def main() -> int:
    if len(sys.argv) == 8 and sys.argv[1] == "--serve-web":
        serve_web(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=40)
    parser.add_argument("--handsets", type=int, default=40)
    parser.add_argument("--questions", type=int, default=3, help="questions of each kind (default 3)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    broker = start_broker(prefer="mosquitto")
    conn = Connection(broker.address.host, broker.address.port)
    try:
        hand = handsets(conn, args.handsets, args.questions)
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
    finally:
        broker.stop()
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "phones", "questions": args.questions, "handsets": hand,
                                               "phones": phone}, indent=1))
    return 0 if hand["met"] and phone["met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
