"""The installer into a temporary root with a real build (issue 17): the service user's build leaves the
owner's checkout clean, and `quizbox run` starts from what it installed, against the box's broker set up as
installed (the drop-in, the dynamic security plugin, --sync-accounts), and says it is online."""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from appliance.edge.broker import free_port, wait_for_port
from firmware import protocol
from tests.deploy.tools import REPO, load_configure, need

configure = load_configure()
ARTEFACTS = ("build", "__pycache__", ".egg-info")

pytestmark = [pytest.mark.slow, pytest.mark.mqtt]


def _artefacts(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_dir() and (p.name in ARTEFACTS or p.name.endswith(".egg-info")))


def test_an_install_builds_from_a_copy_and_quizbox_runs_from_it() -> None:
    exe = need("mosquitto", "mosquitto")
    with tempfile.TemporaryDirectory(prefix="quizbox-installed-") as name:
        tmp = Path(name)
        checkout = tmp / "checkout"  # the owner's checkout, as cloned
        subprocess.run(f"tar -C {REPO} --exclude=./.git --exclude=./.venv --exclude=__pycache__ --exclude=./build "
                       f"--exclude='*.egg-info' --exclude=.pytest_cache --exclude=.mypy_cache -cf - . "
                       f"| tar -C {checkout} -xf -", shell=True, check=True,
                       preexec_fn=lambda: checkout.mkdir())  # noqa: PLW1509
        assert _artefacts(checkout) == []
        root = tmp / "root"
        out = subprocess.run(["bash", str(checkout / "deploy/install.sh"), "--root", str(root), "--build",
                              "--box-id", "pub"], capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
        assert _artefacts(checkout) == [], "the build left files in the owner's checkout"
        venv = root / "opt/quizbox/venv"
        assert (venv / "bin/quizbox").exists()

        # the box's broker from the installed drop-in and accounts file, moved to a free port
        port = free_port()
        dropin = (root / configure.DROPIN).read_text().replace("listener 1883", f"listener {port} 127.0.0.1")
        dropin = dropin.replace(f"/{configure.DYNSEC}", str(root / configure.DYNSEC))
        conf = tmp / "mosquitto.conf"
        conf.write_text(dropin.replace("persistence true", "persistence false") + "\nuser root\n")
        broker = subprocess.Popen([exe, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        quizbox = None
        try:
            wait_for_port("127.0.0.1", port)
            sync = subprocess.run([str(venv / "bin/python"), "-B", str(checkout / "deploy/configure.py"),
                                   "--root", str(root), "--sync-accounts", "--port", str(port)],
                                  capture_output=True, text=True, timeout=60)
            assert sync.returncode == 0, sync.stdout + sync.stderr
            config = (root / configure.CONFIG).read_text()
            config = (config.replace("port = 1883", f"port = {port}")
                      .replace('data_dir = "/var/lib/quizbox"', f'data_dir = "{root}/var/lib/quizbox"')
                      .replace('display = "kmsdrm"', 'display = "headless"'))
            run_config = tmp / "quizbox.toml"
            run_config.write_text(config)
            env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
            quizbox = subprocess.Popen([str(venv / "bin/quizbox"), "run", "--config", str(run_config)],
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=tmp)
            web = configure.read_toml(root / configure.WEB_CONFIG)["broker"]["password"]
            seen: queue.Queue[bytes] = queue.Queue()
            watcher = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="installed-test-watcher")
            watcher.username_pw_set("web", web)  # the admin page's account, made by --sync-accounts
            watcher.on_message = lambda c, u, m: seen.put(bytes(m.payload))
            watcher.connect("127.0.0.1", port)
            watcher.subscribe(protocol.appliance_status_topic("pub"), qos=1)
            watcher.loop_start()
            deadline = time.monotonic() + 60
            status = b""
            while status != b"online" and time.monotonic() < deadline and quizbox.poll() is None:
                with contextlib.suppress(queue.Empty):
                    status = seen.get(timeout=1)
            watcher.disconnect()
            watcher.loop_stop()
            assert status == b"online", "quizbox run from the installed venv did not come up"
        finally:
            if quizbox is not None:
                quizbox.terminate()
                try:
                    quizbox.wait(15)
                except subprocess.TimeoutExpired:
                    quizbox.kill()
                log = quizbox.stdout.read().decode(errors="replace") if quizbox.stdout else ""
                print(log[-3000:])
            broker.terminate()
            broker.wait(10)
        shutil.rmtree(root, ignore_errors=True)
