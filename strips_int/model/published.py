"""PDDL as it is published, made readable by `pddl` (definitions section 1): the thin step before its parser.

`pddl` 0.5.1 (the newest release; its main branch alike) reads the lower-case
STRIPS subset of PDDL 3.1. Published files (IPC, CoDMAP-15) go beyond it in
five ways, each undone here on the text before `pddl` parses it:

* keywords in any case (``(Define``, ``(:INIT``, ``(AND``): `pddl`'s grammar
  matches lower case only (AI-Planning/pddl#30), so the text is lower-cased;
  every name is lower-cased on load anyway, PDDL being case-insensitive;
* the built-in type ``object`` written as a type (CoDMAP's ``?obj - object``):
  `pddl` knows no such type outside ``(:types ...)``, so it is renamed to
  :data:`OBJECT_STAND_IN`, declared, and read back as ``object`` after parsing;
* ``:action-costs`` with cost functions (IPC-2008's ``(travel-slow ?f1 ?f2)``):
  `pddl` asks for ``:numeric-fluents`` for any function but ``total-cost``, so
  that is added; what the costs are is dropped after parsing (:mod:`.domain`);
* a typed list's ``- type`` with no names before it (IPC-2008 woodworking's
  ``- board``): `pddl` wants a name, so it is removed;
* CoDMAP-15's unfactored MA-PDDL: `pddl` has no multi-agent grammar, so each
  action's ``:agent ?a - t`` becomes its first parameter, ``(:private ...)``
  groups of predicates and objects are opened, and the requirements
  ``:multi-agent`` and ``:unfactored-privacy`` are dropped; so are a factored file's ``:factored-privacy``
  and its ``(:private ...)`` groups (the union of the agents' files is :mod:`.factored`'s).

``either`` types `pddl` reads as they are. Every edit keeps the text's line
breaks, so the parser's syntax errors still name the file's own lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, NamedTuple

from strips_int.errors import cut

#: The name ``object`` is given where it is written as a type (read back as ``object`` after parsing).
OBJECT_STAND_IN = "strips-int-object"
#: The requirements of CoDMAP's MA-PDDL (unfactored and factored), which say nothing once the file is plain PDDL.
MULTI_AGENT_REQUIREMENTS = frozenset({":multi-agent", ":unfactored-privacy", ":factored-privacy"})

_TOKEN = re.compile(r"[()]|;[^\n]*|[^\s();]+")


class Atom(NamedTuple):
    """A name or keyword of the text, and where it is (``text[start:end]``)."""

    text: str
    start: int
    end: int


@dataclass
class Group:
    """A parenthesised list, ``text[start:end]``, and what is inside."""

    start: int
    end: int
    items: list[Atom | Group]

    @property
    def head(self) -> str | None:
        """The first item, when it is a name or keyword."""
        return self.items[0].text if self.items and isinstance(self.items[0], Atom) else None

    def sections(self, head: str) -> Iterator[Group]:
        """The groups inside whose first item is ``head``."""
        return (item for item in self.items if isinstance(item, Group) and item.head == head)


@dataclass(frozen=True)
class Readable:
    """The text `pddl` is given, and the actions whose first parameter came from an ``:agent`` line."""

    text: str
    agent_lines: frozenset[str]


def readable(text: str) -> Readable:
    """``text`` (a domain or a problem) as `pddl` can parse it (see the module docstring).

    Text that is not one well-formed ``(define ...)`` is only lower-cased: the parser then says
    what is wrong with it, by line and column.
    """
    lowered = text.lower()
    top = _definition(lowered)
    if top is None:
        return Readable(lowered, frozenset())
    edits: list[tuple[int, int, str]] = []
    agent_lines = []
    for group in top.items:
        if not isinstance(group, Group):
            continue
        if group.head == ":requirements":
            edits += _requirements(group, top)
        elif group.head in (":predicates", ":objects", ":constants"):
            for private in group.sections(":private"):
                edits += _opened(private)
                edits += _unnamed(private, skip=_header(private))
            if group.head != ":predicates":
                edits += _unnamed(group, skip=1)
        elif group.head == ":action" and _agent_line(lowered, group, edits):
            name = group.items[1] if len(group.items) > 1 else None
            agent_lines.append(name.text if isinstance(name, Atom) else "")
    if next(top.sections("domain"), None) is not None:
        edits += _object_type(top)
    return Readable(_edited(lowered, edits), frozenset(agent_lines))


def dropped_by_pddl(text: str) -> tuple[int, str] | None:
    """The first thing a domain's ``text`` says that `pddl` would drop without a word, as (line, what): an
    action defined twice (its actions are a set, so two equal definitions become one), a parameter named
    twice in one action (one variable), a ``:derived`` predicate (parsed, and never applied here)."""
    lowered = text.lower()
    top = _definition(lowered)
    if top is None:
        return None

    def line(group: Group) -> int:
        return lowered.count("\n", 0, group.start) + 1

    first: dict[str, int] = {}
    for group in top.items:
        if isinstance(group, Group) and group.head == ":derived":
            return line(group), "a :derived predicate, which is not STRIPS (strips_int applies no derived predicates)"
        if not (isinstance(group, Group) and group.head == ":action" and len(group.items) > 1):
            continue
        name = cut(group.items[1].text) if isinstance(group.items[1], Atom) else "?"
        if name in first:
            return line(group), f"action {name} declared twice (first on line {first[name]})"
        first[name] = line(group)
        key = next((i for i, item in enumerate(group.items) if isinstance(item, Atom) and item.text == ":parameters"),
                   len(group.items))
        parameters = group.items[key + 1] if key + 1 < len(group.items) else None
        names = [item.text for item in parameters.items if isinstance(item, Atom) and item.text.startswith("?")] \
            if isinstance(parameters, Group) else []
        twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if twice is not None:
            return line(parameters), f"action {name}: parameter {cut(twice)} named twice"
    return None


def _definition(text: str) -> Group | None:
    """The ``(define ...)`` group of ``text``, or None when the parentheses do not balance."""
    stack: list[Group] = [Group(-1, -1, [])]
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token == "(":
            stack.append(Group(match.start(), -1, []))
        elif token == ")":
            if len(stack) == 1:
                return None
            group = stack.pop()
            group.end = match.end()
            stack[-1].items.append(group)
        elif token[0] != ";":
            stack[-1].items.append(Atom(token, match.start(), match.end()))
    if len(stack) != 1:
        return None
    return next(stack[0].sections("define"), None)


def _blank(start: int, end: int) -> tuple[int, int, str]:
    """An edit that removes ``text[start:end]`` (as spaces, keeping columns)."""
    return start, end, ""


def _requirements(group: Group, top: Group) -> list[tuple[int, int, str]]:
    edits = [_blank(item.start, item.end) for item in group.items
             if isinstance(item, Atom) and item.text in MULTI_AGENT_REQUIREMENTS]
    declared = {item.text for item in group.items if isinstance(item, Atom)}
    functions = [item.head for section in top.sections(":functions") for item in section.items
                 if isinstance(item, Group)]
    if ":action-costs" in declared and ":numeric-fluents" not in declared and set(functions) - {"total-cost"}:
        edits.append((group.end - 1, group.end - 1, " :numeric-fluents"))
    return edits


def _opened(private: Group) -> list[tuple[int, int, str]]:
    """A ``(:private ?agent - type ...)`` group of predicates or ``(:private name ...)`` group of objects
    (or a factored file's ``(:private ...)``) opened: its head, and its ``)``, removed."""
    last = private.items[_header(private) - 1]
    return [_blank(private.start, last.end), _blank(private.end - 1, private.end)]


def _header(private: Group) -> int:
    """How many items a ``(:private ...)`` group's header has: ``:private ?agent - type`` (unfactored
    predicates), ``:private name`` (unfactored objects), or ``:private`` alone (factored files, where the
    agent is the file's: ``(:private (driving ?agent - driver ?t - truck))``, ``(:private driver0 - driver)``)."""
    items = private.items
    typed = len(items) > 3 and isinstance(items[1], Atom) and items[1].text.startswith("?") \
        and isinstance(items[2], Atom) and items[2].text == "-"
    if typed:
        return 4
    named = len(items) > 1 and isinstance(items[1], Atom) \
        and not (len(items) > 2 and isinstance(items[2], Atom) and items[2].text == "-")
    return 2 if named else 1


def _unnamed(group: Group, skip: int) -> list[tuple[int, int, str]]:
    """``- type`` with no names before it in a typed list of objects (IPC-2008 woodworking's problems write
    ``- board`` when they have no boards), removed: `pddl` wants a name before each ``-``."""
    edits, names = [], 0
    items = group.items[skip:]
    for before, item, after in zip([None, *items], items, [*items[1:], None]):
        if isinstance(item, Group):
            names = 0
        elif item.text == "-":
            if names == 0 and after is not None and not (isinstance(before, Atom) and before.text == "-"):
                edits.append(_blank(item.start, after.end))
            names = -1  # the type that follows is no name
        else:
            names += 1
    return edits


def _agent_line(text: str, action: Group, edits: list[tuple[int, int, str]]) -> bool:
    """An MA-PDDL ``:agent ?a - type`` line made the action's first parameter (edits added); whether
    the action had one."""
    items = action.items
    at = next((i for i, item in enumerate(items) if isinstance(item, Atom) and item.text == ":agent"), None)
    if at is None or at + 1 >= len(items) or not isinstance(items[at + 1], Atom):
        return False
    typed = at + 3 < len(items) and isinstance(items[at + 2], Atom) and items[at + 2].text == "-"
    last = items[at + 3] if typed else items[at + 1]
    source = " ".join(re.sub(r";[^\n]*", " ", text[items[at + 1].start:last.end]).split())
    edits.append(_blank(items[at].start, last.end))
    key = next((i for i, item in enumerate(items) if isinstance(item, Atom) and item.text == ":parameters"), None)
    parameters = items[key + 1] if key is not None and key + 1 < len(items) else None
    if isinstance(parameters, Group):
        edits.append((parameters.start + 1, parameters.start + 1, source + " "))
    else:
        edits.append((items[at].start, items[at].start, f":parameters ({source})"))
    return True


def _object_type(top: Group) -> list[tuple[int, int, str]]:
    """``object`` written as a type outside ``(:types ...)`` renamed to the stand-in, which is declared."""
    edits: list[tuple[int, int, str]] = []
    pending = [group for group in top.items if isinstance(group, Group) and group.head != ":types"]
    while pending:
        group = pending.pop()
        typed = group.head == "either"
        for before, item in zip([None, *group.items], group.items):
            if isinstance(item, Group):
                pending.append(item)
            elif item.text == "object" and (typed or (isinstance(before, Atom) and before.text == "-")):
                edits.append((item.start, item.end, OBJECT_STAND_IN))
    if not edits:
        return edits
    types = next(top.sections(":types"), None)
    if types is not None:
        edits.append((types.end - 1, types.end - 1, f" {OBJECT_STAND_IN}"))
    else:
        later = next(g for g in top.items if isinstance(g, Group) and g.head not in ("domain", ":requirements"))
        edits.append((later.start, later.start, f"(:types {OBJECT_STAND_IN}) "))
    return edits


def _edited(text: str, edits: list[tuple[int, int, str]]) -> str:
    """``text`` with each edit (start, end, new text) made; removed text becomes spaces, its line breaks kept."""
    parts, position = [], 0
    for start, end, new in sorted(edits, key=lambda edit: (edit[0], edit[1])):
        parts.append(text[position:start])
        parts.append(new if new else re.sub(r"[^\n]", " ", text[start:end]))
        position = max(position, end)
    parts.append(text[position:])
    return "".join(parts)
