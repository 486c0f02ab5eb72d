"""The command lines' shared pieces, and ``strips-int``, the console script over all of them.

    strips-int check overcooked GAME.json --json
    strips-int rc --layout cramped_room
    strips-int evaluate overcooked user-study/ --out results/
    strips-int plot timeline sar examples/sar/kit-pass.trace.json --out kit.png
    strips-int simulate examples/sar/fire-door.scenario.json --out fire-door.log.json

Each subcommand is the ``main`` of its ``python -m strips_int.<name>`` module,
imported only when chosen, so ``strips-int --help`` loads no analysis code.

Every ``main`` runs under :func:`command` and parses with :class:`Parser`, so
that whatever happens the user sees lines, never a traceback: a usage error is
one line and exit 2; output cut off by a closed pipe (``| head``) ends quietly
(exit 141, 128 + SIGPIPE, as Unix tools do); Ctrl-C is one line and exit 130;
an exception no other layer caught (a bug) is one ``internal error`` line and
exit 2.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import sys
from typing import Any, Callable, Literal, NoReturn, Sequence

#: subcommand -> (module whose ``main`` runs it, one-line help)
COMMANDS = {
    "check": ("strips_int.check", "find who helped whom in recorded games or traces"),
    "rc": ("strips_int.rc_cli", "does a problem require cooperation? (planner)"),
    "evaluate": ("strips_int.evaluate", "analyse many games and write paper tables"),
    "plot": ("strips_int.plot", "figures for papers"),
    "simulate": ("strips_int.grounders.sar.simulate", "run a SAR scenario and write its log"),
}

DOMAIN_HELP = "PDDL domain file, or a packaged domain by name (overcooked, sar)"
#: Exit status of a command whose output pipe was closed (128 + SIGPIPE), and of one interrupted (128 + SIGINT).
BROKEN_PIPE, INTERRUPTED = 141, 130


class Parser(argparse.ArgumentParser):
    """argparse under the error contract: a usage error is one bounded line and exit 2 (not the whole usage)."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text[:300]} (usage: {self.prog} --help)\n")


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
            from strips_int.errors import internal_error

            print(f"error: {internal_error('', None, exc).message}", file=sys.stderr)
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


def add_grounder_options(parser: argparse.ArgumentParser, use: Literal["read", "start"] | None = None) -> None:
    """The registered grounders' options, declared once by the grounders themselves: those for reading
    games (``read``), for start problems (``start``, RC), or all (None)."""
    from strips_int.grounders import all_options

    group = parser.add_argument_group("grounder options (raw games)" if use == "read" else "grounder options")
    for option in all_options():
        if use is None or option.use in (use, "both"):
            group.add_argument(option.flag, dest=option.dest, help=option.help, metavar=option.metavar,
                               type=option.type)


def grounder_options(args: argparse.Namespace) -> dict[str, Any]:
    """The grounder options given on the command line, by ``dest``."""
    from strips_int.grounders import all_options

    return {o.dest: getattr(args, o.dest) for o in all_options() if getattr(args, o.dest, None) is not None}


def version() -> str:
    from strips_int import __version__

    return __version__


@command
def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="strips-int", description="Who is helping whom: interdependences "
                    "between agents in recorded games, via STRIPS/PDDL.")
    parser.add_argument("--version", action="version", version=f"strips-int {version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, text) in COMMANDS.items():
        commands.add_parser(name, help=text, add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    known, rest = parser.parse_known_args(argv[:1])
    module = importlib.import_module(COMMANDS[known.command][0])
    return module.main([*rest, *argv[1:]], prog=f"strips-int {known.command}")


if __name__ == "__main__":
    sys.exit(main())
