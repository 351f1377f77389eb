"""`quizbox demo` as a user runs it: everything starts, bots play, and it stops cleanly by itself."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

from appliance.edge.broker import mosquitto_binary


def test_the_demo_runs_a_game_and_stops_cleanly(tmp_path: Path) -> None:
    snapshot = tmp_path / "board.png"
    done = subprocess.run(
        [sys.executable, "-m", "appliance", "demo", "--seconds", "15", "--headless", "--snapshot", str(snapshot)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin:/usr/sbin", "HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy"},
    )
    out = done.stdout
    assert done.returncode == 0, done.stderr[-2000:]
    kind = "mosquitto" if mosquitto_binary() else "amqtt"
    broker = re.search(rf"broker\s+{kind} on 127\.0\.0\.1:(\d+)", out)
    assert broker is not None, out
    assert "4 bots: sim01, sim02, sim03, sim04" in out and "admin page  http://127.0.0.1:" in out
    assert "demo: started a game of confident with 4 handsets" in out
    assert out.rstrip().endswith("Quizbox demo stopped.")
    assert snapshot.read_bytes().startswith(b"\x89PNG")
    with socket.socket() as sock:  # no broker left behind
        assert sock.connect_ex(("127.0.0.1", int(broker.group(1)))) != 0
