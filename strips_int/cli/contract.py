"""The contract every command line keeps, and the arguments they share.

Every ``main`` runs under :func:`command` and parses with :class:`Parser`, so
that whatever happens the user sees lines, never a traceback: a usage error is
one line and exit 2; output cut off by a closed pipe (``| head``) ends quietly
(exit 141, 128 + SIGPIPE, as Unix tools do); Ctrl-C is one line and exit 130;
an error no other layer caught is one ``error:`` line (naming its file, or
``internal error`` for a bug) and exit 2.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Literal, NoReturn, Sequence

DOMAIN_HELP = ("PDDL domain file, or a packaged or plug-in domain by name (overcooked, hanabi, football and "
               "others)")
#: Exit status of a command whose output pipe was closed (128 + SIGPIPE), and of one interrupted (128 + SIGINT).
BROKEN_PIPE, INTERRUPTED = 141, 130


class Parser(argparse.ArgumentParser):
    """argparse under the error contract: a usage error is one bounded line and exit 2 (not the whole usage)."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text[:300]}{self.did_you_mean(text)} (usage: {self.prog} --help)\n")

    def did_you_mean(self, message: str) -> str:
        """``; did you mean check?`` for an argparse error about a mistyped choice (a subcommand, ``--rules``)
        or option (``--jsn``), from the choices or options there are (:func:`~strips_int.errors.closest`);
        empty when nothing is close. (Python 3.14's ``suggest_on_error`` does the same; 3.10 must be served.)"""
        from strips_int.errors import closest

        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            meant = closest(choice.group(1), re.findall(r"'([^']*)'", choice.group(2)) or choice.group(2).split(", "))
            return f"; did you mean {meant}?" if meant else ""
        unknown = re.search(r"unrecognized arguments: (.*)", message)
        if unknown:
            words = unknown.group(1).split()
            meant = [(word, close) for word in words if word.startswith("-")
                     and (close := closest(word.split("=")[0], self._option_string_actions))]
            if len(words) == 1:
                return "".join(f"; did you mean {close}?" for _, close in meant)
            return "".join(f"; {word}: did you mean {close}?" for word, close in meant)
        return ""


def whole(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``, checked before any work starts
    (a bad ``--seed`` or ``--resamples`` found only when the tables are written would waste the run)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"need a whole number from {low:,} to {high:,}, not {text[:30]!r}")
        return value

    return parse


def out_folder(text: str) -> Path:
    """An argparse type: an output folder, which need not exist yet, but is not a file (refused before any
    work, instead of the raw ``[Errno 17] File exists`` of making it)."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text[:200]} is a file; give a folder (it is created if missing)")
    return path


def swapped_arguments(domain: str | Path, paths: Sequence[Path], prog: str) -> str | None:
    """When DOMAIN could not be loaded: the likely mistake of a game given first and the domain after it
    (``check GAME.json overcooked``), as the line that says so, or None."""
    from strips_int.batch.games import GAME_SUFFIXES

    first = Path(domain)
    named = [p for p in paths if p.suffix.lower() == ".pddl" or (not p.exists() and not p.suffix and len(p.parts) == 1)]
    if first.is_file() and first.suffix.lower() in GAME_SUFFIXES and named:
        rest = [str(p) for p in paths if p not in named[:1]]
        return (f"{first} is a game, not a PDDL domain: the domain comes first "
                f"({prog} {named[0]} {' '.join([str(first), *rest])})")
    return None


def command(main: Callable[..., int]) -> Callable[..., int]:
    """``main`` of a command line under the contract of the module docstring (closed pipe, Ctrl-C, bugs)."""

    @functools.wraps(main)
    def run(*args: Any, **kwargs: Any) -> int:
        try:
            code = main(*args, **kwargs)
            sys.stdout.flush()  # a pipe closed after the last line fails here, not at interpreter exit
            return code
        except BrokenPipeError:
            _quiet_stdout()
            return BROKEN_PIPE
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return INTERRUPTED
        except Exception as exc:  # the last line of defence: one line, no traceback
            from strips_int.errors import StripsIntError, internal_error, printable

            line = exc if isinstance(exc, StripsIntError) else printable(internal_error("", None, exc).message)
            print(f"error: {line}", file=sys.stderr)
            return 2

    return run


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's final flush into the closed pipe fails no more."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test's captured output): nothing to flush into
        pass


def add_domain_argument(parser: argparse.ArgumentParser, **kwargs: Any) -> None:
    """The positional DOMAIN: a file or a packaged domain's name (resolved by ``load_domain``)."""
    parser.add_argument("domain", help=DOMAIN_HELP, **kwargs)


def add_grounder_options(parser: argparse.ArgumentParser, use: Literal["read", "start"] | None = None,
                         several: bool = False) -> None:
    """The registered grounders' options, declared by the grounders themselves: those for reading games
    (``read``), for start problems (``start``, RC), or all (None). One argument per flag, whoever declares
    it, kept as the text given (:func:`given_flags`): each grounder converts it by its own type when the
    command routes it there (:func:`converted`). ``several``: a flag some grounder names start problems
    with takes one or more values (a list)."""
    from strips_int.grounders import declared

    group = parser.add_argument_group("grounder options (raw games)" if use == "read" else "grounder options")
    for flag, owners in declared(use).items():
        helps = [option.help for _, option in owners]
        text = helps[0] if len(set(helps)) == 1 else "; ".join(f"{g.name}: {o.help}" for g, o in owners)
        metavar = "|".join(dict.fromkeys(o.metavar or o.dest.upper() for _, o in owners))
        many = several and any(o.names for _, o in owners)
        group.add_argument(flag, dest=_dest(flag), help=text.replace("%", "%%"), metavar=metavar,
                           **({"nargs": "+"} if many else {}))


def _dest(flag: str) -> str:
    """The namespace attribute a grounder flag's text is kept in (never a grounder's ``dest``)."""
    return "grounder" + flag


def given_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The grounder flags given on the command line, as their text (a list where several values are taken)."""
    prefix = _dest("")
    return {key.removeprefix(prefix): value for key, value in vars(args).items()
            if key.startswith(prefix) and value is not None}


def converted(parser: argparse.ArgumentParser, grounder: Any, given: dict[str, Any], several: bool = False
              ) -> dict[str, Any]:
    """Of the flags ``given``, those ``grounder`` declares, by its ``dest``, each converted by its own type;
    a value the type refuses is a usage error naming the flag (and the grounder, when ``several`` declare
    it). A list of one value is that value, except for an option that names start problems."""
    found = {}
    for option in grounder.options:
        if option.flag not in given:
            continue
        raw = given[option.flag]
        if isinstance(raw, list) and (len(raw) == 1 or not option.names):
            raw = raw[0] if len(raw) == 1 else raw
        found[option.dest] = ([_typed(parser, option, grounder.name if several else None, v) for v in raw]
                              if isinstance(raw, list) else _typed(parser, option, grounder.name if several else None,
                                                                   raw))
    return found


def _typed(parser: argparse.ArgumentParser, option: Any, owner: str | None, text: str) -> Any:
    """``text`` by ``option.type``, as argparse would report a refusal (``invalid int value: 'x'``)."""
    try:
        return option.type(text)
    except argparse.ArgumentTypeError as exc:
        why = str(exc)
    except (TypeError, ValueError):
        why = f"invalid {getattr(option.type, '__name__', 'value')} value: {text!r}"
    parser.error(f"argument {option.flag}{f' ({owner})' if owner else ''}: {why}")


def grounder_options(parser: argparse.ArgumentParser, args: argparse.Namespace, domain: Any) -> dict[str, Any]:
    """The grounder options given for reading games, by ``dest``: each flag goes to the grounders of
    ``domain`` that declare it (those of another domain cannot read a game of this one), else, for a
    domain no grounder is of (a variant's own file), to every grounder declaring it; each converts the
    text by its own type. Two of them reading one value into one ``dest`` differently is a usage error."""
    from strips_int.grounders import declared

    given, owners, found = given_flags(args), declared("read"), {}
    for flag in given:
        grounders = list(dict.fromkeys(g for g, _ in owners[flag] if g.domain == domain.name)) or \
            list(dict.fromkeys(g for g, _ in owners[flag]))
        readers: dict[str, str] = {}
        for grounder in grounders:
            for dest, value in converted(parser, grounder, {flag: given[flag]}, len(grounders) > 1).items():
                if dest in found and found[dest] != value:
                    parser.error(f"argument {flag}: {readers.get(dest, 'another grounder')} and {grounder.name} "
                                 f"read {given[flag]!r} differently")
                found[dest] = value
                readers.setdefault(dest, grounder.name)
    return found


#: The domain pragmas a command line can add to (definitions section 1), with what each names.
PRAGMA_OPTIONS = {
    "agent-types": ("TYPE", ("the agents' types, for a domain without a type agent (IPC: --agent-types truck "
                             "airplane); adds to the domain's agent-types pragma")),
    "navigation-actions": ("NAME", "add to the domain's navigation-actions pragma"),
    "position-predicates": ("NAME", "add to the domain's position-predicates pragma"),
    "ignore-predicates": ("NAME", "add to the domain's ignore-predicates pragma"),
}


def add_help_cost_option(parser: argparse.ArgumentParser) -> None:
    """``--help-cost``: each interdependence's self-help cost too (definitions section 14), a search that costs
    more than the rest of the analysis (docs/speed.md)."""
    parser.add_argument("--help-cost", action="store_true",
                        help="also each interdependence's self-help cost: the receiver's own actions in a cheapest "
                        "plan alone (a number, inf or unknown); slower")


def add_pragma_options(parser: argparse.ArgumentParser) -> None:
    """``--agent-types T...`` and the other pragmas' options, which reach ``load_domain`` (:func:`domain_of`)."""
    for key, (metavar, text) in PRAGMA_OPTIONS.items():
        parser.add_argument(f"--{key}", nargs="+", default=[], metavar=metavar, help=text)


def pragmas(args: argparse.Namespace) -> dict[str, list[str]]:
    """The pragma names given on the command line, by pragma (only those given)."""
    return {key: names for key in PRAGMA_OPTIONS if (names := getattr(args, key.replace("-", "_"), None))}


def domain_of(args: argparse.Namespace, name: Any = None) -> Any:
    """The domain ``args.domain`` (or ``name``) names, with the pragmas given on the command line; what it
    read and dropped (action costs) is said once, on standard error."""
    from strips_int.errors import guarded
    from strips_int.grounders import domain_path
    from strips_int.model.domain import load_domain

    path = domain_path(args.domain if name is None else name)
    domain = guarded(str(path), "domain", lambda: load_domain(path, pragmas(args)))
    for note in domain.notes:
        print(f"note: {note}", file=sys.stderr)
    return domain


def version() -> str:
    from strips_int import __version__

    return __version__


def fail(error: Exception | str) -> int:
    """A command's bad input: its one ``error:`` line on standard error (an OSError as ``file: what``, not
    ``[Errno 17] ...``), and exit status 2."""
    if isinstance(error, OSError) and error.filename is not None:
        error = f"{error.filename}: {error.strerror or type(error).__name__}"
    print(f"error: {error}", file=sys.stderr)
    return 2
