"""Confident? (seed 000; product decisions: rules.md "Confident?" 1-8).

Everyone secretly writes a range they think contains the answer, optionally with the Copy, Swap and
Double boosts; the quizmaster closes entries (everyone in, or the time-out) and settles: copies, then
swaps, then scoring, then doubles. The first to the target (15) wins.

* :mod:`.actions`: the inputs (host: question, close, settle, end; player: answer);
* :mod:`.settlement`: the pure settlement of one question (copies, swaps, scoring, doubles, win);
* :mod:`.engine`: :class:`ConfidentEngine`, the phase machine, refusals and views;
* :mod:`.scenario`: the ``quizbox replay`` adapter.
"""

from __future__ import annotations
