"""What is worked out once and kept, owned by one object per domain, with one :meth:`Cache.clear`.

Games on one layout share their ground actions, their explorations under the
delete relaxation and what the analysis reads of each action, so these are
kept; everything kept is about one domain, so the domain owns it
(:attr:`strips_int.model.domain.Domain.cache`) and there is no process-wide
state: a domain dropped takes its cache with it. Each user of the cache keeps
its values in a table of its own name. A ground action's memo (what each
analysis context reads of it) is part of its domain's cache: :meth:`clear`
empties the memos of the actions the domain made. Written by hand (a dict
with a bound): ``functools``' caches belong to module-level functions, these
tables to one domain. Every table has a bound (least recently used entries go first), so that a process
analysing many games, each on a problem of its own (Hanabi: a deck each), keeps a bounded memory; the
bounds are on the Speed page (docs/speed.md).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")


class Table(OrderedDict):
    """A dict that keeps at most ``limit`` entries (None: no bound), dropping the least recently used first:
    :meth:`get` and :meth:`keep` make an entry the most recent. An ``OrderedDict``: it moves an entry to the
    end and drops the first in constant time, where a plain dict's first entry, after many dropped before
    it, is found by walking over their empty slots (11 µs an entry at 20,000 ground actions)."""

    def __init__(self, limit: int | None = None) -> None:
        super().__init__()
        self.limit = limit

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The value under ``key`` (now the most recently used), or ``default``."""
        if self.limit is None:
            return super().get(key, default)
        value = super().get(key, _ABSENT)
        if value is _ABSENT:
            return default
        self.move_to_end(key)  # the most recent
        return value

    def keep(self, key: Hashable, value: T) -> T:
        """Store ``value`` under ``key`` (dropping the least recently used entry when full) and return it."""
        self[key] = value
        if self.limit is not None:
            self.move_to_end(key)
            if len(self) > self.limit:
                self.popitem(last=False)
        return value


#: What :meth:`Table.get` tells a missing key by (a stored value may be None).
_ABSENT = object()


class Cache:
    """The named tables and values of one domain's cache."""

    def __init__(self) -> None:
        self._tables: dict[str, Table] = {}
        self._values: dict[str, Any] = {}

    def table(self, name: str, limit: int) -> Table:
        """The table ``name`` (made on first use, bounded to ``limit`` entries)."""
        found = self._tables.get(name)
        if found is None:
            found = self._tables[name] = Table(limit)
        return found

    def value(self, name: str, make: Callable[[], T]) -> T:
        """The value kept as ``name``, made by ``make()`` on first use."""
        found = self._values.get(name)
        if found is None:
            found = self._values[name] = make()
        return found

    def forget(self, name: str) -> None:
        """Drop the value kept as ``name`` (it is made again on next use)."""
        self._values.pop(name, None)

    def clear(self) -> None:
        """Forget everything kept: tables, values, and the memos of the ground actions kept in any table."""
        for table in self._tables.values():
            for value in table.values():
                memo = getattr(value, "memo", None)
                if isinstance(memo, dict):
                    memo.clear()
        self._tables.clear()
        self._values.clear()
