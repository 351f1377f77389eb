"""The rules engines. Each game is a package ``appliance.games.<name>`` with:

* ``engine``: the pure engine (a subclass of :class:`appliance.games.base.Engine`);
* ``scenario``: a :class:`appliance.games.scenario.ScenarioAdapter` for ``quizbox replay``;
* ``standing``: how its public view reads as a standing.

:mod:`appliance.games.registry` lists them (one :class:`~appliance.games.registry.GameSpec` each).
"""
