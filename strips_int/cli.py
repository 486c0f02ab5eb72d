"""The command lines' shared pieces, and ``strips-int``, the console script over all of them.

    strips-int check overcooked GAME.json --json
    strips-int rc --layout cramped_room
    strips-int evaluate overcooked user-study/ --out results/
    strips-int plot timeline sar examples/sar/kit-pass.trace.json --out kit.png
    strips-int simulate examples/sar/fire-door.scenario.json --out fire-door.log.json

Each subcommand is the ``main`` of its ``python -m strips_int.<name>`` module,
imported only when chosen, so ``strips-int --help`` loads no analysis code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any, Sequence

#: subcommand -> (module whose ``main`` runs it, one-line help)
COMMANDS = {
    "check": ("strips_int.check", "find who helped whom in recorded games or traces"),
    "rc": ("strips_int.rc_cli", "does a problem require cooperation? (planner)"),
    "evaluate": ("strips_int.evaluate", "analyse many games and write paper tables"),
    "plot": ("strips_int.plot", "figures for papers"),
    "simulate": ("strips_int.grounders.sar.simulate", "run a SAR scenario and write its log"),
}

DOMAIN_HELP = "PDDL domain file, or a packaged domain by name (overcooked, sar)"


def add_domain_argument(parser: argparse.ArgumentParser, **kwargs: Any) -> None:
    """The positional DOMAIN: a file or a packaged domain's name (resolved by ``load_domain``)."""
    parser.add_argument("domain", help=DOMAIN_HELP, **kwargs)


def add_grounder_options(parser: argparse.ArgumentParser) -> None:
    """Every registered grounder's options, declared once by the grounders themselves."""
    from strips_int.grounders import all_options

    group = parser.add_argument_group("grounder options (raw games)")
    for option in all_options():
        group.add_argument(option.flag, dest=option.dest, help=option.help, metavar=option.metavar, type=option.type)


def grounder_options(args: argparse.Namespace) -> dict[str, Any]:
    """The grounder options given on the command line, by ``dest``."""
    from strips_int.grounders import all_options

    return {o.dest: getattr(args, o.dest) for o in all_options() if getattr(args, o.dest, None) is not None}


def version() -> str:
    from strips_int import __version__

    return __version__


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="strips-int", description="Who is helping whom: interdependences "
                                     "between agents in recorded games, via STRIPS/PDDL.")
    parser.add_argument("--version", action="version", version=f"strips-int {version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, text) in COMMANDS.items():
        commands.add_parser(name, help=text, add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    known, rest = parser.parse_known_args(argv[:1])
    module = importlib.import_module(COMMANDS[known.command][0])
    try:
        return module.main([*rest, *argv[1:]], prog=f"strips-int {known.command}")
    except BrokenPipeError:  # output piped into head: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
