"""The grounder plug-in interface: what an environment provides so strips_int can read its games.

A grounder recognizes its files from their content, as the registry shows it (a :class:`Head`: the
first :data:`HEAD_BYTES` of each file, read once for every recognizer), with the strength of its
evidence (:class:`Claim`: the strongest claim wins, whatever the grounders' order; two equal ones are
an error naming both); reads each game of a file into a :class:`~strips_int.model.trace.Trace` of its
domain (steps grounded by :class:`strips_int.model.trace.ActionGrounder` and applied by
:func:`strips_int.model.execution.apply`); declares its command-line options, which are its own (two
grounders may both declare ``--layout``: a command gives each value to the grounder it is about);
and optionally gives the start problem of a named layout or scenario for RC, command lines of its
own, a drawing of its states for the HTML report and, for a grounder installed from another package,
its domain's PDDL file (``domain_file``: a built-in's is ``domains/NAME.pddl``). A start problem
may come as the alternative goals it may be reached by
(:meth:`Grounder.start_alternatives`: an Overcooked layout with two ordered
recipes is done when either soup is delivered), and a grounder may name the
layouts or scenarios it knows (:meth:`Grounder.start_names`, for ``rc
--all-layouts``).

Whatever a grounder raises besides :class:`~strips_int.errors.StripsIntError`
is turned into one by :func:`strips_int.errors.internal_error` at the registry's boundary, so a
third-party bug costs one input, never the run.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Mapping, NamedTuple, Protocol, Sequence

from strips_int.errors import StripsIntError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from strips_int.model.domain import Domain
    from strips_int.model.task import Fact, Problem
    from strips_int.model.trace import Trace


#: What a file is to the grounder that recognizes it (:meth:`Grounder.recognizes`).
Kind = Literal["games", "start"]
GAMES: Kind = "games"
START: Kind = "start"

#: How strong a recognizer's evidence is (:class:`Claim`): the file names its own format (a tag its
#: writer puts in it, such as SAR's ``"format"`` or JaxMARL's ``format`` array) ...
TAGGED = 3
#: ... it has the keys, columns or arrays of the format (Overcooked's ``ep_states``, a hanab.live card) ...
SHAPED = 2
#: ... or only the container the format uses (a pickle's first opcode).
CONTAINER = 1
#: The evidence strengths by name, for messages.
EVIDENCE = {TAGGED: "names its format", SHAPED: "has the format's keys", CONTAINER: "has the format's container"}

#: The bytes of a file every recognizer is shown (:attr:`Head.data`), read once by the registry.
HEAD_BYTES = 64 * 1024


class Claim(NamedTuple):
    """A recognizer's answer: what the file is to it and how strong its evidence is (:data:`TAGGED`,
    :data:`SHAPED`, :data:`CONTAINER`); the strongest claim wins, whatever the grounders' order."""

    kind: Kind
    strength: int


class Head:
    """What recognizers see of a file, read by the registry once for all of them: its ``path`` (its
    suffix may narrow the formats, never decide), ``size`` and first :data:`HEAD_BYTES` bytes (``data``).

    A recognizer that cannot decide from the head (a key that may stand anywhere in a JSON object, a zip
    archive's members) calls :meth:`whole`: all of the file, read at most once for all recognizers and
    only when it is within :data:`~strips_int.files.MAX_INPUT_BYTES`. So recognizing a file reads at
    most its head and, when some recognizer asks, the file once more, whatever the grounders are and
    whatever their order; a recognizer reads the file only through its head.
    """

    def __init__(self, path: Path, size: int, data: bytes) -> None:
        self.path, self.size, self.data = path, size, data
        self._whole: bytes | None = data if size <= len(data) else None

    @classmethod
    def of(cls, path: str | Path) -> Head:
        """The head of a regular file (an error naming it for anything else, such as a FIFO or a folder)."""
        from strips_int.files import read_head, regular_file

        path = path if isinstance(path, Path) else Path(path)
        return cls(path, regular_file(path), read_head(path, HEAD_BYTES))

    def mentions(self, needle: bytes) -> bool:
        """Whether ``data`` holds ``needle`` (``needle in data``), decided fast for most files that do not: a
        byte of it the data lacks says no at the speed of a one-byte search (memchr), about a tenth of a
        search for several bytes, which every recognizer would otherwise pay on every file it is shown.
        Its rarest bytes in JSON (:data:`_COMMON`) are looked for first; a byte present is found at its
        first occurrence."""
        data = self.data
        return all(byte in data for byte in _rarest_first(needle)) and needle in data

    def whole(self) -> bytes | None:
        """All of the file, or None when it is larger than the input limit or cannot be read (read once)."""
        from strips_int.files import MAX_INPUT_BYTES, read_bytes

        if self._whole is None and self.size <= MAX_INPUT_BYTES:
            try:
                self._whole = read_bytes(self.path)
            except StripsIntError:
                self._whole = b""
        return self._whole or None


#: Bytes from the most to the least common in recorded games' JSON (those not here are the rarest).
_COMMON = b'" ,:0123456789.-etaoinsrhldcupmyb[]{}_fgwkvxjqz'


def _rarest_first(needle: bytes) -> list[bytes]:
    """The distinct bytes of ``needle``, each as a one-byte string, the rarest in JSON first."""
    return [bytes((b,)) for b in sorted(set(needle), key=_COMMON.find)]


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
    """One goal a start problem may be reached by (RC decides "some goal", definitions section 8), and what the
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

    def recognizes(self, head: Head) -> Claim | Kind | None:
        """What the file whose :class:`Head` this is is to this environment, decided from its content:
        a :class:`Claim` of ``"games"`` (recorded games) or ``"start"`` (a problem to start from, such as
        a SAR scenario: a folder walk passes it over) with the strength of its evidence (a bare kind is
        :data:`SHAPED`), or None (not one of its files); never raises. Read the file only through
        ``head``: the registry shows every file to every recognizer."""
        ...

    def read(self, path: Path, domain: Domain, **options: Any) -> Iterator[Trace | StripsIntError]:
        """One result per game; a bad game is a :class:`StripsIntError` value, so it hides no other."""
        ...

    def start_problem(self, name: str, domain: Domain, **options: Any) -> Problem | None:
        """The start problem of a named layout or scenario (for RC), or None."""
        ...

    # Optional (a grounder without them has none; :class:`BaseGrounder` gives these defaults):
    #: The PDDL file of :attr:`domain`, for a grounder of another package (a domain by name is a file, then
    #: a packaged ``domains/NAME.pddl``, then this).
    domain_file: Path | None
    #: Command lines of its own: subcommand -> (module whose ``main`` runs it, one-line help).
    commands: Mapping[str, tuple[str, str]]

    def drawing(self, problem: Problem) -> Drawing | None:
        """How to draw a state of ``problem`` (the HTML report shows one beside each interdependence), or None."""
        ...

    def start_alternatives(self, name: str, domain: Domain, **options: Any) -> tuple[Alternative, ...] | None:
        """The start problem of ``name`` as its alternative goals (at least one), or None."""
        ...

    def start_names(self) -> Sequence[str]:
        """The layouts or scenarios :meth:`start_problem` knows by name (``rc --all-layouts``)."""
        ...

    def check_options(self, paths: Sequence[Path], **options: Any) -> None:
        """Raise a :class:`StripsIntError` when the options given for a batch of game files cannot work for
        them (one error for the batch, before any game is read, instead of the same error in every row)."""
        ...


class Drawing(Protocol):
    """Draws one state of a problem on matplotlib axes: ``agents`` in ``colors`` (by index), the objects in
    ``highlight`` (those an interdependence shares) marked. It may also have ``key(ax, agents, colors)``,
    which draws what its symbols mean (the HTML report shows it once, above the drawings), and
    ``image(state, agents, highlight, colors, size, dpi)``, the same drawing as a Pillow image of at most
    ``size`` pixels, points at ``dpi`` (the HTML report draws two states a row with it, where a
    matplotlib axes each would cost most of the page's time; text in :func:`drawing_font`)."""

    def __call__(self, ax: Axes, state: frozenset[Fact], agents: Sequence[str], highlight: Iterable[str],
                 colors: Sequence[str]) -> None:
        ...


@functools.lru_cache(maxsize=16)
def drawing_font(pixels: float) -> Any:
    """The figures' font (matplotlib's DejaVu Sans) at ``pixels``, for a drawing's ``image`` and the HTML
    report's captions of them (Pillow)."""
    import matplotlib
    from PIL import ImageFont

    return ImageFont.truetype(str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"), pixels)


class BaseGrounder:
    """Defaults of the optional parts of :class:`Grounder`, for a grounder to derive from."""

    options: tuple[Option, ...] = ()
    commands: Mapping[str, tuple[str, str]] = {}
    domain_file: Path | None = None

    def start_problem(self, name: str, domain: Domain, **options: Any) -> Problem | None:
        return None

    def start_alternatives(self, name: str, domain: Domain, **options: Any) -> tuple[Alternative, ...] | None:
        """:meth:`start_problem` as the only alternative (the registry applies this to any grounder without
        its own)."""
        problem = self.start_problem(name, domain, **options)
        return None if problem is None else (Alternative(problem),)

    def start_names(self) -> Sequence[str]:
        return ()

    def drawing(self, problem: Problem) -> Drawing | None:
        return None

    def check_options(self, paths: Sequence[Path], **options: Any) -> None:
        return None


def check_actions(actions: frozenset[str], domain: Domain, wanted: str, source: str) -> None:
    """Up front: ``domain`` must have every action schema a grounder produces (``wanted``: its domain's name)."""
    missing = sorted(actions - domain.schemas.keys())
    if missing:
        raise StripsIntError(source, None, f"domain {domain.name} has no action {', '.join(missing[:3])}"
                             f"{' ...' if len(missing) > 3 else ''}: use the {wanted} domain")

