// Runs handset tests under real MicroPython (the WebAssembly port from npm).
//
//   node run.mjs ROOT [--mpy DIR] [--heapsize BYTES] [--call EXPR] [--heap]
//
// Writes firmware/protocol.py, firmware/core/*.py, firmware/esp32/*.py (or their .mpy from DIR, compiled
// by mpy-cross), the hardware stubs (machine, network, usocket), umqtt.simple and the test files into MicroPython's filesystem
// under /lib, then runs `suite.main()` (or EXPR) and prints its output. Exit code: the number of failed
// tests (capped at 100), 101 when MicroPython raised, 102 on bad arguments.
// --heap: heap figures of a whole game of prompts (game.py, or --game MODULE with --args "ARGS" for its
// Game(ARGS): appgame is the whole ESP32 app), printed as JSON.

import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";

const argv = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const root = argv[0];
if (!root || !fs.existsSync(path.join(root, "firmware", "protocol.py"))) {
  console.error("usage: node run.mjs REPO_ROOT [--mpy DIR] [--heapsize BYTES] [--call EXPR] [--heap]");
  process.exit(102);
}
const mpyDir = opt("--mpy", null);

function files() {
  // [path in MicroPython's FS, bytes]
  const out = [];
  const add = (src, dest) => out.push([dest, fs.readFileSync(src)]);
  const pkg = (dir, dest) => {
    for (const name of fs.readdirSync(path.join(root, dir)).sort()) {
      if (!name.endsWith(".py") || name === "boot.py" || name === "main.py" || name === "manifest.py") continue;
      const base = name.slice(0, -3);
      if (mpyDir && fs.existsSync(path.join(mpyDir, dir, base + ".mpy"))) {
        add(path.join(mpyDir, dir, base + ".mpy"), `${dest}/${base}.mpy`);
      } else {
        add(path.join(root, dir, name), `${dest}/${name}`);
      }
    }
  };
  pkg("firmware", "/lib/firmware");
  pkg("firmware/core", "/lib/firmware/core");
  pkg("firmware/esp32", "/lib/firmware/esp32");
  for (const stub of ["machine.py", "network.py", "usocket.py"]) add(path.join(root, "tests/firmware/stubs", stub), `/lib/${stub}`);
  // umqtt.simple as a handset has it (vendored from PyPI for the fault-injection tests)
  for (const name of ["__init__.py", "simple.py"]) add(path.join(root, "tests/firmware/mpy/umqtt", name), `/lib/umqtt/${name}`);
  // the same client behaving as micropython-lib's 1.8.0 (what the official ESP32 images freeze), faults.main("1.8.0")
  add(path.join(root, "tests/firmware/mpy/umqtt180.py"), "/lib/umqtt180.py");
  add(path.join(root, "tests/firmware/samples.py"), "/lib/samples.py");
  add(path.join(root, "tests/firmware/mpy/suite.py"), "/lib/suite.py");
  add(path.join(root, "tests/firmware/mpy/game.py"), "/lib/game.py");
  add(path.join(root, "tests/firmware/mpy/faults.py"), "/lib/faults.py");
  add(path.join(root, "tests/firmware/mpy/appgame.py"), "/lib/appgame.py");
  return out;
}

async function boot(heapsize, quiet) {
  const lines = [];
  const sink = (line) => (quiet ? lines.push(line) : console.log(line));
  const mp = await loadMicroPython({ heapsize, stdout: sink, stderr: sink });
  for (const [dest, data] of files()) {
    const dir = path.posix.dirname(dest);
    let sofar = "";
    for (const part of dir.split("/").filter(Boolean)) {
      sofar += "/" + part;
      try { mp.FS.mkdir(sofar); } catch { /* exists */ }
    }
    mp.FS.writeFile(dest, data);
  }
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\n");
  return { mp, lines };
}

if (argv.includes("--heap")) {
  // Heap figures of a whole game (game.py), one prompt per runPython call. The port collects garbage
  // only between calls, so the heap in use at the end of a step (nothing freed during it) bounds the
  // step's peak from above; "live" is what stays after a collection between steps.
  const { mp } = await boot(parseInt(opt("--heapsize", String(256 * 1024)), 10), true);
  const used = (code) => {
    mp.runPython("import gc\n" + code + "\n_used = gc.mem_alloc()\n");
    return mp.globals.get("_used");
  };
  const collected = () => used("gc.collect()");
  const empty = collected();
  const game = opt("--game", "game");
  // what the firmware's own modules take (as .mpy files loaded into RAM), then the test harness's
  used(opt("--firmware", "import firmware.core.handset"));
  const firmware = collected() - empty;
  used("import " + game);
  const imported = collected() - empty;
  used("_g = " + game + ".Game(" + opt("--args", "") + ")");
  const started = collected() - empty;
  let peak = 0, live = 0, steps = 0, step = 0;
  for (;;) {
    // one call: collect, note the heap in use, run one step, note it again (no collection in between)
    mp.runPython("import gc\ngc.collect()\n_before = gc.mem_alloc()\n_more = _g.step()\n_after = gc.mem_alloc()\n");
    live = Math.max(live, mp.globals.get("_before") - empty);
    peak = Math.max(peak, mp.globals.get("_after") - empty);
    step = Math.max(step, mp.globals.get("_after") - mp.globals.get("_before"));
    if (!mp.globals.get("_more")) break;
    steps += 1;
  }
  if (game !== "game") mp.runPython("_g.check()\n");  // the game went as a player's would
  console.log(JSON.stringify({ steps, firmware_bytes: firmware, imported_bytes: imported, started_bytes: started, live_bytes: live, peak_bytes: peak, step_bytes: step }));
  process.exit(0);
}

const heapsize = parseInt(opt("--heapsize", String(1024 * 1024)), 10);
const call = opt("--call", "suite.main()");
const { mp } = await boot(heapsize, false);
try {
  mp.runPython("import suite\n_failed = " + call + "\n");
} catch (err) {
  console.log(String(err));
  process.exit(101);
}
const failed = mp.globals.get("_failed");
process.exit(typeof failed === "number" ? Math.min(failed, 100) : 0);
