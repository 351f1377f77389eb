"""``quizbox replay [--check] FILE`` (also ``python -m appliance.box.replay_cli``): the command line over
:mod:`appliance.box.replay` (game files) and :mod:`appliance.box.replay_night` (night files), which it tells
apart by their content. Exit codes: 0 agree, 1 disagree, 2 malformed or an unexpected refusal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from appliance.box import replay_night
from appliance.box.replay import (
    EXIT_AGREE,
    EXIT_DISAGREE,
    EXIT_MALFORMED,
    ScenarioError,
    check,
    load,
    play,
    read_file,
)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="quizbox replay",
        description="Play a scenario file (a whole game as data) through its rules engine.",
        epilog="exit codes: 0 agree, 1 an expect disagrees, 2 malformed file or a refused step",
    )
    parser.add_argument("--check", action="store_true", help="compare the file's expect keys with the result")
    parser.add_argument("file", type=Path, help="the scenario JSON file")
    return parser


def main(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """``quizbox replay [--check] FILE``; returns the exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_MALFORMED
    path: Path = args.file
    try:
        data = read_file(path)
        if replay_night.is_night(data):
            night = replay_night.load(data)
            replay: Any = replay_night.play(night)
            found = replay_night.check(night, replay) if args.check else []
            expects = sum((1 if r.expect else 0) + sum(1 for q in r.questions if q.expect) for r in night.rounds)
            summary = f"a night of {len(night.rounds)} round(s), {expects + (1 if night.expect else 0)} expect(s)"
        else:
            scenario = load(data)
            replay = play(scenario)
            found = check(scenario, replay) if args.check else []
            expects = sum(1 for q in scenario.questions if q.expect) + (1 if scenario.expect else 0)
            summary = f"{len(scenario.questions)} question(s), {expects} expect(s)"
    except ScenarioError as exc:
        print(f"quizbox replay: {path}: {exc}", file=err)
        return EXIT_MALFORMED
    if not args.check:
        print(json.dumps(replay.result(), indent=2, ensure_ascii=False), file=out)
        for problem in replay.problems:
            print(f"quizbox replay: {path}: {problem}", file=err)
        return EXIT_DISAGREE if replay.problems else EXIT_AGREE
    for line in found:
        print(line, file=out)
    if found:
        print(f"FAILED {path}: {len(found)} difference(s)", file=out)
        return EXIT_DISAGREE
    print(f"ok {path}: {summary} agree", file=out)
    return EXIT_AGREE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
