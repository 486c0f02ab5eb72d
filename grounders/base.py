"""The grounder plug-in interface: what an environment provides so strips_int can read its games.

A grounder recognizes its files from their parsed content, reads each game of
a file into a :class:`~strips_int.model.trace.Trace` of its packaged domain (steps
grounded by :class:`strips_int.model.trace.ActionGrounder` and applied by
:func:`strips_int.model.trace.apply`), declares its command-line options once, and
optionally gives the start problem of a named layout or scenario for RC: as one
problem (:meth:`Grounder.start_problem`) or as the alternative goals it may be
reached by (:meth:`Grounder.start_alternatives`: an Overcooked layout with two
ordered recipes is done when either soup is delivered), and the names it knows
(:meth:`Grounder.start_names`, for ``rc --all-layouts``). The last two may be
left out: :func:`strips_int.grounders.start_alternatives` and
:func:`strips_int.grounders.start_names` give the defaults (the start problem as
its only alternative; no names).

Whatever a grounder raises besides :class:`~strips_int.errors.StripsIntError`
is turned into one by :func:`strips_int.errors.internal_error` at the registry's boundary, so a
third-party bug costs one input, never the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Literal, Protocol, Sequence

from strips_int.errors import StripsIntError

if TYPE_CHECKING:
    from strips_int.model.domain import Domain
    from strips_int.model.task import Problem
    from strips_int.model.trace import Trace


#: What a file is to the grounder that recognizes it (:meth:`Grounder.recognizes`).
Kind = Literal["games", "start"]
GAMES: Kind = "games"
START: Kind = "start"


@dataclass(frozen=True)
class Option:
    """One command-line option a grounder takes; the CLIs add it to their parsers.

    ``use`` says which calls take it: ``read`` (games: check, evaluate, plot),
    ``start`` (:meth:`Grounder.start_problem`: rc) or ``both``; a command line
    shows only the options that apply to it.
    """

    flag: str
    dest: str
    help: str
    metavar: str | None = None
    type: Callable[[str], Any] = str
    use: Literal["read", "start", "both"] = "both"
    #: The option names a start problem (a layout, a grid file, a scenario file): ``rc`` takes several
    #: values of it, one table row each.
    names: bool = False
    #: For a ``names`` option given a folder: the suffixes of the files in it (walked) that ``rc`` takes.
    suffixes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Alternative:
    """One goal a start problem may be reached by (RC decides "some goal", SPEC section 8), and what the
    RC table's ``rules`` and ``recipe`` columns say of it ("" where the environment has no such thing)."""

    problem: Problem
    rules: str = ""
    recipe: str = ""


class Grounder(Protocol):
    """An environment's reader: see the module docstring."""

    name: str
    domain: str
    actions: frozenset[str]
    options: tuple[Option, ...]

    def recognizes(self, path: Path) -> Kind | None:
        """What ``path`` is to this environment, decided from parsed content: ``"games"`` (recorded games),
        ``"start"`` (a problem to start from, such as a SAR scenario: a folder walk passes it over), or
        None (not one of its files); never raises."""
        ...

    def read(self, path: Path, domain: Domain, **options: Any) -> Iterator[Trace | StripsIntError]:
        """One result per game; a bad game is a :class:`StripsIntError` value, so it hides no other."""
        ...

    def start_problem(self, name: str, domain: Domain, **options: Any) -> Problem | None:
        """The start problem of a named layout or scenario (for RC), or None."""
        ...

    def start_alternatives(self, name: str, domain: Domain, **options: Any) -> tuple[Alternative, ...] | None:
        """Optional: the start problem of ``name`` as its alternative goals (at least one), or None.
        Default: :meth:`start_problem` as the only alternative."""
        ...

    def start_names(self) -> Sequence[str]:
        """Optional: the layouts or scenarios :meth:`start_problem` knows by name (``rc --all-layouts``).
        Default: none."""
        ...


def check_actions(actions: frozenset[str], domain: Domain, wanted: str, source: str) -> None:
    """Up front: ``domain`` must have every action schema a grounder produces (``wanted``: its domain's name)."""
    missing = sorted(actions - domain.schemas.keys())
    if missing:
        raise StripsIntError(source, None, f"domain {domain.name} has no action {', '.join(missing[:3])}"
                             f"{' ...' if len(missing) > 3 else ''}: use the {wanted} domain")

