"""The appliance (a child process) on a disk that fills up, and on an SD card that turns read-only under it
(ext4 with errors=remount-ro, made to fail through ext4's own sysfs test switch, as a dying card does):
the input that cannot be stored is refused, not acked; the board and the admin page say why; nothing acked
is lost and the database is never damaged; with room again, or after the box restarts on the repaired
card, the game goes on."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from appliance.edge.broker import MosquittoBroker
from appliance.infra.store import Store, StoreError
from tests.faults.checks import match_all, problems
from tests.faults.harness import Player, Table, cards, wait_until

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]


def _cannot(what: str, detail: str) -> None:
    message = f"{what}: {detail.strip()}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (CI runs as root and must be able to)")
    pytest.skip(message)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=False)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 4 MiB filesystem (tmpfs) a test can fill; needs root."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = _run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount))
    if done.returncode:
        _cannot("cannot mount a tmpfs", done.stderr)
    try:
        yield mount
    finally:
        _run("umount", "-l", str(mount))


@dataclass
class Card:
    """An ext4 image on a loop device, mounted with errors=remount-ro like the Pi's SD card."""

    image: Path
    mount: Path

    def attach(self) -> None:
        done = _run("mount", "-o", "loop,errors=remount-ro", str(self.image), str(self.mount))
        if done.returncode:
            _cannot("cannot mount an ext4 image on a loop device", done.stderr)

    def fail(self) -> None:
        """What a dying card does: an ext4 error, and the kernel turns the filesystem read-only."""
        device = _run("findmnt", "-n", "-o", "SOURCE", str(self.mount)).stdout.strip()
        switch = Path("/sys/fs/ext4", Path(device).name, "trigger_fs_error")
        if not switch.exists():
            _cannot("no ext4 error switch", f"{switch} is missing")
        switch.write_text("quizbox fault test\n")

    def repair(self) -> None:
        """The box restarted: unmount, fsck, mount again writable."""
        assert _run("umount", str(self.mount)).returncode == 0
        fsck = _run("e2fsck", "-fy", str(self.image))
        assert fsck.returncode in (0, 1), fsck.stdout + fsck.stderr  # 1: errors corrected
        self.attach()


@pytest.fixture
def sd_card(tmp_path: Path) -> Iterator[Card]:
    if shutil.which("mkfs.ext4") is None or shutil.which("e2fsck") is None:
        _cannot("e2fsprogs is missing", "apt-get install e2fsprogs")
    image, mount = tmp_path / "card.img", tmp_path / "card"
    mount.mkdir()
    with open(image, "wb") as out:
        out.truncate(16 * 1024 * 1024)
    made = _run("mkfs.ext4", "-q", "-F", str(image))
    assert made.returncode == 0, made.stderr
    card = Card(image, mount)
    card.attach()
    try:
        yield card
    finally:
        _run("umount", "-l", str(mount))


def _fill(folder: Path) -> Path:
    """Fill the filesystem of ``folder`` to the last byte; returns the filler file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while os.write(fd, b"\0" * size):
                    pass
            except OSError:
                pass
    finally:
        os.close(fd)
    return filler


def _paused_table(tmp_path: Path, broker: MosquittoBroker, data_dir: Path, prefix: str) -> Table:
    table = Table(tmp_path, broker.port, 5, prefix, data_dir=data_dir)
    for player in table.players:
        player.paused = True
    table.start_game("confident", {"target": 4}, 3)
    for player in table.players:
        player.wait_prompt("range")
    _copies_done(data_dir)
    return table


def _copies_done(data_dir: Path) -> None:
    """Until the store's good copy after the game's start and first question is written (the box copies
    in the background, appliance/box/recovery.py; replacing the old copy frees its space, which would
    make room on a disk the test has just filled)."""
    good, tmp = data_dir / "quizbox-good.db", data_dir / "quizbox-good.db.tmp"
    last: tuple[float, bool] | None = None
    stable_since = time.monotonic()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        now = (good.stat().st_mtime if good.exists() else 0.0, tmp.exists())
        if now != last:
            last, stable_since = now, time.monotonic()
        elif now[0] and not now[1] and time.monotonic() - stable_since > 0.5:
            return
        time.sleep(0.05)
    raise AssertionError("the store's good copy was not written")


def _answer(player: Player) -> None:
    """Let one bot answer the question on its screen (again, if it was refused before)."""
    with player.changed:
        player.tries.clear()
        player.paused = False


def _refused(player: Player) -> str:
    wait_until(lambda: any(s.refused for s in player.sent), 10, f"{player.player}'s input refused")
    with player.changed:
        player.paused = True
        assert not any(s.acked for s in player.sent)
    return str(player.acks[-1]["msg"])


def test_a_full_disk_refuses_the_input_says_so_and_loses_nothing(
    tmp_path: Path, broker: MosquittoBroker, small_disk: Path
) -> None:
    table = _paused_table(tmp_path, broker, small_disk / "data", "full")
    ann, bob, cat = table.players
    try:
        filler = _fill(small_disk)
        _answer(ann)
        assert _refused(ann).startswith("the disk is full")
        wait_until(lambda: "disk is full" in table.observer.board.get("message", ""), 5, "the board says it")
        wait_until(lambda: "disk is full" in table.observer.admin.get("message", ""), 5, "the admin page says it")
        filler.unlink()  # the quizmaster made room
        _answer(ann)
        wait_until(lambda: any(s.acked for s in ann.sent), 10, "Ann's input stored and acked")
        wait_until(lambda: table.observer.board.get("message") == "", 5, "the board's warning gone")
        _answer(bob)
        _answer(cat)
        table.settle()
        wait_until(lambda: all(any(s.acked for s in p.sent) for p in table.players), 10, "everyone in")
        table.app.kill9()
        with Store(table.app.db) as store:
            assert store.check() == "ok"
            game = store.unfinished_game()
        assert game is not None
        assert not problems(match_all(game, table.players))
        assert len([e for e in game.log if e.get("player") == "Ann"]) == 1
    finally:
        table.close()


def test_an_sd_card_turning_read_only_refuses_inputs_and_the_box_resumes_after_repair(
    tmp_path: Path, broker: MosquittoBroker, sd_card: Card
) -> None:
    table = _paused_table(tmp_path, broker, sd_card.mount / "data", "card")
    ann, bob, cat = table.players
    try:
        _answer(ann)
        wait_until(lambda: any(s.acked for s in ann.sent), 10, "Ann's input acked")
        sd_card.fail()
        _answer(bob)
        refusal = _refused(bob)
        assert "quizbox.db" in refusal or "database" in refusal, refusal
        wait_until(lambda: "quizbox.db" in table.observer.board.get("message", ""), 5, "the board says it")
        wait_until(lambda: "quizbox.db" in table.observer.admin.get("message", ""), 5, "the admin page says it")
        # the box is switched off and on; the card is checked and mounted again
        table.app.kill9()
        sd_card.repair()
        with Store(table.app.db) as store:
            assert store.check() == "ok"
        onlines = table.observer.onlines
        table.app.start()
        table.observer.wait_online(onlines)
        wait_until(lambda: bob.prompt is not None and bob.prompt.get("kind") == "range"
                   and bob.prompt.get("id") != bob.sent[-1].prompt, 10, "Bob's question again, from the new boot")
        _answer(bob)
        _answer(cat)
        wait_until(lambda: all(any(s.acked for s in p.sent) for p in table.players), 10, "everyone in")
        table.settle()
        game = table.app.last_game()
        assert game is not None and not problems(match_all(game, table.players))
        assert [e["player"] for e in game.log if e.get("player")].count("Ann") == 1
    finally:
        table.close()


def test_a_card_turned_read_only_is_named_read_only(sd_card: Card) -> None:
    with Store(sd_card.mount / "q.db") as store:
        store.save_handset("h1", "Ann", True)
        sd_card.fail()
        with pytest.raises(StoreError, match="read-only"):
            store.save_handset("h2", "Bob", True)


def test_a_start_refused_on_a_full_disk_says_why_where_it_was_pressed(
    tmp_path: Path, broker: MosquittoBroker, small_disk: Path
) -> None:
    """*start* pressed between games on a full disk (issue 38): refused, and the reason is in the reply the
    admin page waits for (it shows it where start was pressed, web/games.py) and on the TV and the admin
    page's message line; it was refused not_saved with no word anywhere."""
    table = _paused_table(tmp_path, broker, small_disk / "data", "fullstart")
    try:
        table.observer.command(cmd="end", id="end-1")
        wait_until(lambda: (g := table.app.last_game()) is not None and g.status != "running", 10, "the game ended")
        _copies_done(small_disk / "data")
        filler = _fill(small_disk)
        seats = [{"player": p.player, "handset": p.id} for p in table.players]
        table.observer.command(cmd="start", id="start-full", game="confident", options={"target": 4}, seats=seats,
                               cards=cards("confident", 2, tmp_path))
        wait_until(lambda: table.observer.admin.get("last", {}).get("id") == "start-full", 10, "the start answered")
        last = table.observer.admin["last"]
        assert not last["ok"] and last["code"] == "not_saved" and last["msg"].startswith("the disk is full"), last
        wait_until(lambda: "disk is full" in table.observer.board.get("message", ""), 5, "the TV says it")
        wait_until(lambda: "disk is full" in table.observer.admin.get("message", ""), 5, "the admin page says it")
        filler.unlink()
        table.observer.command(cmd="start", id="start-room", game="confident", options={"target": 4}, seats=seats,
                               cards=cards("confident", 3, tmp_path))
        wait_until(lambda: table.observer.admin.get("last", {}).get("id") == "start-room", 10, "the start answered")
        assert table.observer.admin["last"]["ok"], table.observer.admin["last"]
        wait_until(lambda: table.observer.board.get("message", "") == "", 5, "the TV's warning gone")
    finally:
        table.close()
