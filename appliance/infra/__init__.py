"""The floor below the box's parts: the SQLite store, the configuration file and the health of a
background job. Every layer above (edge, session, decks, web, box) may import it; it imports nothing of
theirs (only :mod:`appliance.errors` and :mod:`firmware.protocol`)."""
