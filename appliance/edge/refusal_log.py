"""Refused pairing requests in the journal once a minute with a count, never one line per refusal (issue 38:
a pairing flood from the guest Wi-Fi wrote 1,921 warnings in 4 minutes to the box's SD card).

The first refusal after a quiet minute is said at once, with its reason (an honest handset refused is seen
without waiting); the ones after it are counted, by reason, and said in one line when the minute is over
(:meth:`RefusalLog.flush`, called by whoever holds a clock tick; :meth:`RefusalLog.note` flushes too). Pure
but for the logger: the clock is passed in.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable

EVERY = 60.0
"""Seconds between two lines about refused pairing requests."""

MAX_REASONS = 5
"""Reasons named in one line (the most frequent); the rest are counted as "other"."""


class RefusalLog:
    """Counts refusals and says them at most once every :data:`EVERY` seconds. Not thread-safe: one
    thread notes and flushes (the pairing desk's), or the caller locks."""

    def __init__(self, logger: logging.Logger, clock: Callable[[], float], every: float = EVERY,
                 what: str = "pairing requests") -> None:
        self.logger, self.clock, self.every, self.what = logger, clock, every, what
        self.total = 0  # every refusal ever noted (for the admin page and tests)
        self.lines = 0  # lines written
        self._held: Counter[str] = Counter()  # refusals noted since the last line, by reason
        self._last_line: float | None = None

    def note(self, reason: str, detail: str = "") -> None:
        """One refusal; ``reason`` is its kind (counted), ``detail`` what is said of the first of a quiet
        minute (the topic, the message)."""
        self.total += 1
        now = self.clock()
        if self._last_line is None or now - self._last_line >= self.every:
            if self._held:
                self.flush()  # the minute that just ended, then this one on its own
                self._held[reason] += 1
                return
            self._say(f"{self.what} refused: {reason}{f' ({detail})' if detail else ''}; further refusals "
                      f"are counted and said once a minute", now)
            return
        self._held[reason] += 1

    def flush(self, force: bool = False) -> None:
        """Say the refusals held back, if the minute since the last line is over (or ``force``: at a stop)."""
        now = self.clock()
        if not self._held or (not force and self._last_line is not None and now - self._last_line < self.every):
            return
        count = sum(self._held.values())
        ranked = self._held.most_common()
        named = [f"{n} {reason}" for reason, n in ranked[:MAX_REASONS]]
        other = sum(n for _, n in ranked[MAX_REASONS:])
        if other:
            named.append(f"{other} other")
        since = "" if self._last_line is None else f" in the last {now - self._last_line:.0f} s"
        self._held.clear()
        self._say(f"{count} {self.what} refused{since}: {'; '.join(named)}", now)

    def _say(self, line: str, now: float) -> None:
        self.logger.warning("%s", line)
        self.lines += 1
        self._last_line = now
