"""The one exception strips_int raises for bad input, with where it happened."""

from __future__ import annotations


class StripsIntError(Exception):
    """Bad input: names the file, the place in it (line or step) and what is wrong.

    ``str(error)`` is a single line meant for the user, e.g.
    ``trace.json: step 3 (t=4, agent nurse1): (treat ...) is not applicable: ...``.
    """

    def __init__(self, source: str, where: str | None, message: str) -> None:
        self.source = source
        self.where = where
        self.message = message
        place = f"{source}: {where}" if where else source
        super().__init__(f"{place}: {message}")
