"""Run every benchmark once and write the README's performance section from that run (``make bench``).

    python bench/report.py [--readme README.md] [--quick]

Each bench (bench/game.py, scale.py, cpu.py, board.py, latency.py, phones.py, flood.py, sizes.py) runs in its own
process, its output shown as it goes, and leaves its figures as JSON; then the section of README.md between the markers
``<!-- bench:start -->`` and ``<!-- bench:end -->`` is replaced by a table per bench, with the date, the
machine and its load (os.getloadavg, before and after), so no figure in the README is older than the
code it describes. The README is written whatever the figures are; the exit status is 1 when a goal
was missed (or a bench failed), and the section says which.

``--quick``: small counts, to try the whole chain (the figures are then marked as such).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
START, END = "<!-- bench:start -->", "<!-- bench:end -->"

FULL: dict[str, list[str]] = {
    "game": ["--sizes", "8", "64", "256", "--runs", "3", "--samples", "120"],
    "scale": ["--sizes", "64", "256", "--questions", "3", "--idle", "5"],
    "cpu": ["--sizes", "8", "64", "256", "--inputs", "2000", "--runs", "3"],
    "board": ["--frames", "20", "--idle", "10"],
    "latency": ["--sizes", "8", "64", "256", "--samples", "200"],
    "phones": ["--phones", "40", "--handsets", "40", "--buzzes", "10", "--questions", "3"],
    "flood": ["--players", "12", "--phase", "10", "--rounds", "3", "--publishers", "4", "--logins", "300"],
    "sizes": ["--seats", "40"],
}
QUICK: dict[str, list[str]] = {
    "game": ["--sizes", "8", "64", "--runs", "1", "--samples", "24"],
    "scale": ["--sizes", "64", "--questions", "1", "--idle", "1"],
    "cpu": ["--sizes", "8", "64", "--inputs", "200", "--runs", "1"],
    "board": ["--frames", "3", "--idle", "1"],
    "latency": ["--sizes", "8", "--samples", "24"],
    "phones": ["--phones", "4", "--handsets", "4", "--buzzes", "2", "--questions", "1"],
    "flood": ["--players", "4", "--phase", "3", "--rounds", "1", "--publishers", "2", "--logins", "30"],
    "sizes": ["--seats", "40"],  # seconds at 40 seats: sizes are the same whatever the counts
}


def machine() -> str:
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        fields = dict(line.split(":", 1) for line in cpuinfo.read_text().splitlines() if ":" in line)
        fields = {k.strip().lower(): v.strip() for k, v in fields.items()}
        model = fields.get("model name") or fields.get("model") or fields.get("hardware") or ""
    cpu = model or platform.processor() or platform.machine()
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


def run(name: str, args: Sequence[str], out: Path) -> tuple[dict[str, Any] | None, int]:
    """Run bench/<name>.py with ``args`` and --json; its figures (None if it wrote none) and exit status."""
    target = out / f"{name}.json"
    command = [sys.executable, str(HERE / f"{name}.py"), *args, "--json", str(target)]
    print(f"\n$ {' '.join(['python', f'bench/{name}.py', *args])}", flush=True)
    env = {**os.environ, "SDL_VIDEODRIVER": os.environ.get("SDL_VIDEODRIVER", "dummy")}
    status = subprocess.call(command, env=env)
    figures = json.loads(target.read_text()) if target.exists() else None
    return figures, status


# -- the tables ---------------------------------------------------------------------------------------------


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def ok(met: bool) -> str:
    return "met" if met else "**missed**"


def game_section(f: dict[str, Any]) -> list[str]:
    rows = []
    for r in f["rows"]:
        goal = "" if r["goal"] is None else f"<= {r['goal']:g}x: {ok(r['met'])}"
        rows.append([r["game"], r["handsets"], r["seated"], r["inputs"], f"{r['raw_p50']:.2f} / {r['raw_p99']:.2f}",
                     f"{r['ack_p50']:.2f} / {r['ack_p99']:.2f}", f"{r['x_p50']:.2f} / {r['x_p99']:.2f}",
                     int(r["lost"]), goal])
    think = f.get("think", 0.05)
    return [f"**Input to ack in a real game** (`python bench/game.py`, median of {f['runs']} runs): Confident? "
            f"ranges coming within {f['spread']:g} s of the question; poker bets one at a time, each {think:g} s "
            "after the board of the bet before (a player's pause; the raw pings pause as long: a round trip "
            "after a pause is slower on both sides); poker-rush: each bet as soon as the prompt is there, with "
            "no goal (its bets still wait for the board, which the appliance paces at one every 20 ms or so, "
            "while its raw pings follow each other with no pause). This bench seats 12 (Confident?) or 8 (poker) of "
            "the room's handsets (the games seat 40: tests/session/test_room_forty.py plays every game at 40; "
            "a 40-seat timing is issue 30's), each seated handset in a process of its own (a device of its own "
            "on a night); the other "
            "handsets are in the room, online, pinged for their clocks (every 10 s outside a buzzer round; in "
            "one more process). An input is timed from its hand-over to MQTT to its ack. Baseline: a raw round "
            "trip through the same broker to an echo client in its own process, from clients in processes of "
            "their own, the Confident? pings on the same schedule, the poker pings one at a time.", "",
            *table(["game", "handsets", "seated", "inputs/run", "raw p50 / p99 ms", "ack p50 / p99 ms",
                    "ratio p50 / p99", "lost", "goal"], rows)]


def scale_section(f: dict[str, Any]) -> list[str]:
    goal = f["goal"]
    rows = [[r["handsets"], f"{r['acked_median']:.3f} / {r['acked_worst']:.3f} s", f"{r['drain_worst'] * 1000:.0f} ms",
             f"{r['raw_acked']:.3f} / {r['raw_acked_worst']:.3f} s / {r['raw_drain'] * 1000:.0f} ms",
             f"{r['x_acked']:.2f}", int(r["lost"]),
             f"{r['cpu_busy']:.0f}% / {r['cpu_idle']:.1f}%", f"{r['rss']:.1f} MB",
             ok(r["met"]) if r["handsets"] >= 256 else ""] for r in f["rows"]]
    spread = f.get("spread", 1.0)
    return [f"**Everyone buzzes at once** (`python bench/scale.py`, {f['questions']} questions): every handset "
            f"presses once at a random moment within {spread:g} s of the arming; \"all acked\" runs from the "
            "first press to the last ack, the drain from the last press to the last ack; the raw baseline has the "
            "same press moments. Goal at 256 handsets: all acked "
            f"within {goal['acked_s']:g} s, drain <= {goal['drain_s'] * 1000:.0f} ms, nothing lost (the presses "
            f"come within {spread:g} s so that the first goal leaves the appliance the drain's "
            f"{goal['drain_s'] * 1000:.0f} ms too, not only the last press's round trip).", "",
            *table(["handsets", "all acked (median / worst)", "drain (worst)",
                    "raw, same presses: all acked (median / worst) / drain",
                    "ratio all acked", "lost", "appliance CPU busy / idle", "RSS", "goal"], rows)]


def cpu_section(f: dict[str, Any]) -> list[str]:
    rows = [[r["game"], r["handsets"], r["seated"], f"{r['us_per_input']:.0f}", f"{r['us_to_ack']:.0f}",
             f"{r['inputs_per_core_s']:.0f}", f"{r['messages_per_input']:.1f}", f"{r['full_us_per_input']:.0f}",
             f"{r['ratio']:.2f}"] for r in f["rows"]]
    return [f"**Appliance CPU per input** (`python bench/cpu.py`, median of {f['runs']} runs of {f['inputs']} "
            "inputs): the hub, session and game in one process with the MQTT client replaced by a counter, "
            "so paho's own work per message is not in it. Baseline: the same inputs with every prompt "
            "rebuilt after each one (the hub before issue 22).", "",
            *table(["game", "handsets", "seated", "us / input", "of which to the ack", "inputs / s on one core",
                    "messages / input", "full rebuild us / input", "ratio"], rows)]


def board_section(f: dict[str, Any]) -> list[str]:
    scenes = f["scenes"]
    worst = max(scenes, key=lambda s: s["ms"])
    pause = next((s for s in scenes if s["scene"] == "pause"), None)
    def later(s: dict[str, Any], key: str) -> str:
        return f"{s[key]:.2f}" if s.get(key) is not None else "-"

    rows = [[s["scene"], f"{s['ms']:.2f}", f"{s['wall_ms']:.2f}", f"{s['ratio']:.1f}", ok(s["met"]),
             later(s, "first_ms"), later(s, "animation_ms")] for s in scenes]
    idle = f["idle"]
    summary = (f"slowest {worst['scene']} {worst['ms']:.2f} ms"
               + (f", pause {pause['ms']:.2f} ms" if pause else "")
               + f"; idle {idle['wall']:.0f} s: {idle['cpu'] * 1000:.0f} ms of CPU ({idle['share']:.2f}% of a core), "
               f"{idle['frames']:.0f} frames drawn")
    return [f"**The TV board** (`python bench/board.py`, headless 1080p, median of {f['frames']} frames): CPU "
            "time to render a scene and put it on the screen, against a fill + flip baseline of "
            f"{f['baseline_ms']:.2f} ms; goal <= {f['goal_ms']:g} ms a frame (a quarter of a 60 Hz frame). "
            f"{summary}.", "",
            "A frame drawn again (a countdown's second, a state sent again) reuses the scene's layer; "
            "\"first\" is a state's first frame, \"animation\" the median frame of its animation (each drawn "
            "whole), not in the goal's column.", "",
            *table(["scene", "CPU ms / frame", "wall ms", "x baseline", "goal", "first ms", "animation ms"], rows)]


def latency_section(f: dict[str, Any]) -> list[str]:
    rows = [[r["handsets"], r["presses"], f"{r['raw_p50']:.2f} / {r['raw_p99']:.2f}",
             f"{r['ack_p50']:.2f} / {r['ack_p99']:.2f} ({r['ack_p50'] / r['raw_p50']:.1f} / "
             f"{r['ack_p99'] / r['raw_p99']:.1f})",
             f"{r['board_p50']:.2f} / {r['board_p99']:.2f}", int(r["lost"])] for r in f["rows"]]
    return [f"**Buzzer latency** (`python bench/latency.py`): presses spread over {f['spread']:g} s; input to ack "
            "and input to the board state listing the buzz, next to the raw round trip (ms).", "",
            *table(["handsets", "presses", "raw p50 / p99", "ack p50 / p99 (ratio)", "board p50 / p99", "lost"],
                   rows)]


def phones_section(f: dict[str, Any]) -> list[str]:
    h, p = f["handsets"], f["phones"]
    b = p["bare"]
    return [f"**Phones pushed, beside handsets** (`python bench/phones.py`): {h['handsets']} handsets, a process "
            f"each, buzz in {f['buzzes']} questions ({h['inputs']} presses; input to ack against the raw broker "
            "round trip of as many clients, a process each, to an echo in its own process, on the same schedule; "
            f"goal <= 1.5x); {p['phones']} phones in headless chromium play {f['questions']} Confident? questions "
            "and as many buzzer questions (push: from the box sending a phone's prompt to its page showing it, "
            "goal p95 <= 150 ms, and to the event carrying that screen reaching the page, before chromium draws "
            "it; the pages poll every 10 minutes, so what they show was pushed). The phones share the box's two "
            "cores here, so chromium runs in the idle scheduling class, and a bare server pushes the same "
            f"screens to {b['pages']} pages of the same chromium in the same run: the floor no web server could go "
            "below on this machine.", "",
            *table(["handsets", "raw p50 / p99 ms", "ack p50 / p99 ms", "ratio p50 / p99", "lost", "goal"],
                   [[h["handsets"], f"{h['raw_p50']:.2f} / {h['raw_p99']:.2f}",
                     f"{h['ack_p50']:.2f} / {h['ack_p99']:.2f}", f"{h['x_p50']:.2f} / {h['x_p99']:.2f}",
                     int(h["lost"]), ok(h["met"])]]), "",
            *table(["phones", "prompts", "push to the screen p50 / p95 / max ms", "to the page p50 / p95 ms",
                    "bare server: to the page p50 / p95, to the screen p50 / p95 ms",
                    "events with their screen", "phone input to ack p50 / p99 ms", "pages that polled", "goal"],
                   [[p["phones"], p["prompts"], f"{p['push_p50']:.1f} / {p['push_p95']:.1f} / {p['push_max']:.1f}",
                     f"{p['arrived_p50']:.1f} / {p['arrived_p95']:.1f}",
                     f"{b['arrived_p50']:.1f} / {b['arrived_p95']:.1f}, {b['shown_p50']:.1f} / {b['shown_p95']:.1f}",
                     f"{p['carried']} of {p['events']}", f"{p['ack_p50']:.1f} / {p['ack_p99']:.1f}", p["polled"],
                     ok(p["met"])]])]


def flood_section(f: dict[str, Any]) -> list[str]:
    rows = [[r["desk"], r["players"], f"{r['publishers']} / {r['logins']}", r["requests"],
             f"{r['quiet_p50']:.1f} / {r['quiet_p95']:.1f} / {r['quiet_max']:.1f} ({r['quiet_n']})",
             f"{r['flood_p50']:.1f} / {r['flood_p95']:.1f} / {r['flood_max']:.1f} ({r['flood_n']})",
             f"{r['ratio_p95']:.2f}", "" if r["goal"] is None else f"<= {r['goal']:g}x: {ok(bool(r['met']))}"]
            for r in f["rows"]]
    first = f["rows"][0]
    return [f"**A pairing flood during a game** (`python bench/flood.py`, issue 38): {first['rounds']} quiet and "
            f"{first['rounds']} flood phases of {first['phase']:g} s, alternating, in one game; a flood is idle "
            "logins and publishers sending pairing requests as fast as they can, as the public pairing account, "
            "each publisher a process of its own (on a night they are the guests' devices, not the box's CPU). "
            "Each player's first ack of a question (ms). Desk \"own\": the pairing broker, a mosquitto of its "
            "own (the box now); \"game\": the desk and the flood on the game's broker (before).", "",
            *table(["desk", "players", "publishers / logins", "requests", "quiet p50 / p95 / max (n)",
                    "flood p50 / p95 / max (n)", "p95 flood / quiet", "goal"], rows)]


def sizes_section(f: dict[str, Any]) -> list[str]:
    limit, board_limit = f["limit"], f["board_limit"]
    by_game: dict[str, list[dict[str, Any]]] = {}
    for r in f["rows"]:
        by_game.setdefault(r["game"], []).append(r)

    def each(rs: list[dict[str, Any]], cell: Callable[[dict[str, Any]], str]) -> str:
        return " / ".join(cell(r) for r in rs)

    rows = [[game, rs[0]["seats"], each(rs, lambda r: f"{r['prompt_bytes']:,} ({r['prompt_kind']})"),
             each(rs, lambda r: f"{r['built_bytes']:,}" + (f", {r['over']} cut" if r["over"] else "")),
             ok(all(r["prompt_bytes"] <= limit and not r["too_much"] for r in rs)),
             each(rs, lambda r: f"{r['board_bytes']:,} ({r['board_scene']})"),
             each(rs, lambda r: f"{r['admin_bytes']:,}"),
             ok(all(max(r["board_bytes"], r["admin_bytes"]) <= board_limit for r in rs))]
            for game, rs in by_game.items()]
    styles = " / ".join(dict.fromkeys(r["names"] for r in f["rows"]))
    return [f"**Message sizes at {f['seats']} seats** (`python bench/sizes.py`): every game (Confident? in each "
            "variant, two_players at its 2 seats) played to its results by the firmware's bot handsets through "
            "the real hub, every prompt and retained state measured as the hub hands it to MQTT; each cell "
            f"is with {styles} team names of 24 characters (an accented letter is 6 bytes in JSON). A prompt's "
            f"limit is protocol.MAX_PAYLOAD, {limit:,} bytes (a handset's RAM); \"as built\" is the prompt "
            "before the hub fits it (appliance/edge/prompts.py shortens what is for reading, never an option; "
            "\"cut\": how many it shortened). Retained states (the TV's board, the admin page's state) against "
            f"the box broker's message_size_limit, {board_limit:,} bytes. Sizes are deterministic: no baseline.",
            "",
            *table(["game", "seats", "largest prompt, bytes (kind)", "as built", "prompt limit",
                    "largest board, bytes (scene)", "largest admin state", "broker limit"], rows)]


SECTIONS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "game": game_section, "scale": scale_section, "cpu": cpu_section, "board": board_section,
    "latency": latency_section, "phones": phones_section, "flood": flood_section, "sizes": sizes_section,
}


def section(results: dict[str, tuple[dict[str, Any] | None, int]], started: str, loads: tuple[str, str],
            quick: bool) -> str:
    missed = [name for name, (_, status) in results.items() if status != 0]
    lines = [START, "",
             f"Figures from one `make bench` run{' (--quick: small counts, a trial of the chain)' if quick else ''}, "
             f"{started} on {machine()}; load average (1 / 5 / 15 min) {loads[0]} before, {loads[1]} after. "
             "Every bench prints ratios against a baseline measured in the same run; on a busy machine the "
             "absolute times are pessimistic. docs/performance.md turns these figures into a budget for a "
             "Raspberry Pi 4 and a Pi 3.", "",
             ("All goals met." if not missed else f"Goals missed or benches failed in this run: {', '.join(missed)}."),
             ""]
    for name, (figures, status) in results.items():
        if figures is None:
            lines += [f"**bench/{name}.py** failed (exit status {status}) and left no figures.", ""]
            continue
        lines += [*SECTIONS[name](figures), ""]
    lines.append(END)
    return "\n".join(lines)


def write(readme: Path, text: str) -> None:
    """Put ``text`` between the markers (the markers included in it), or, with none yet, in place of the
    section headed ``## Performance`` (up to the next ``## ``)."""
    old = readme.read_text()
    if START in old and END in old:
        head, rest = old.split(START, 1)
        new = head + text + rest.split(END, 1)[1]
    else:
        head, marker, rest = old.partition("## Performance\n")
        if not marker:
            new = old.rstrip("\n") + "\n\n## Performance\n\n" + text + "\n"
        else:
            after = rest.find("\n## ")
            tail = rest[after + 1:] if after >= 0 else ""
            new = head + marker + "\n" + text + "\n" + ("\n" + tail if tail else "")
    readme.write_text(new)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--readme", default=str(HERE.parent / "README.md"))
    parser.add_argument("--quick", action="store_true", help="small counts: try the chain, not figures to keep")
    parser.add_argument("--only", nargs="+", choices=list(FULL), help="run only these benches")
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    names = args.only or list(plan)
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    before = load()
    results: dict[str, tuple[dict[str, Any] | None, int]] = {}
    with tempfile.TemporaryDirectory() as out:
        for name in names:
            results[name] = run(name, plan[name], Path(out))
    text = section(results, started, (before, load()), args.quick)
    write(Path(args.readme), text)
    missed = [name for name, (_, status) in results.items() if status != 0]
    print(f"\nREADME.md's performance section written ({args.readme}); "
          + ("all goals met." if not missed else f"goals missed or failed: {', '.join(missed)}."))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
