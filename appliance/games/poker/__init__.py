"""Estimation poker (seed 002; rules.md "Estimation poker" 1-12): chips, antes, four betting rounds
around a secret range, side pots and the showdown.

* :mod:`.engine`: :class:`~.engine.PokerEngine`, the pure rules engine;
* :mod:`.actions`: the inputs; :mod:`.refusals`: why an input is refused;
* :mod:`.betting`: one betting round and its legal actions; :mod:`.pots`: main/side pots, uncalled
  and odd chips; :mod:`.showdown`: which range is best; :mod:`.schedule`: the ante schedule and
  :func:`~.schedule.ante_at`;
* :mod:`.scenario`: the ``quizbox replay`` adapter.
"""
