"""The command lines, one module per command, and ``strips-int``, the console script over all of them.

    strips-int check overcooked GAME.json --json
    strips-int rc --layout cramped_room
    strips-int evaluate overcooked user-study/ --out results/
    strips-int merge results-0/ results-1/ --out results/
    strips-int plot timeline sar examples/sar/kit-pass.trace.json --out kit.png
    strips-int simulate examples/sar/fire-door.scenario.json --out fire-door.log.json

Each subcommand is the ``main`` of its module here (``python -m strips_int.check`` and the other
``python -m`` names run the same), imported only when chosen, so ``strips-int --help`` loads no
analysis code; a grounder adds commands of its own through the registry (``simulate``). Every
command keeps the contract of :mod:`strips_int.cli.contract`.
"""

from __future__ import annotations

import importlib
import sys
from typing import Sequence

from .contract import Parser, command, version

#: subcommand -> (module whose ``main`` runs it, one-line help); grounders add theirs (:func:`all_commands`).
COMMANDS = {
    "check": ("strips_int.cli.check", "find who helped whom in recorded games or traces"),
    "rc": ("strips_int.cli.rc", "does a problem require cooperation? (planner)"),
    "evaluate": ("strips_int.cli.evaluate", "analyse many games and write paper tables"),
    "merge": ("strips_int.cli.merge", "merge the output folders of evaluate --shard runs"),
    "plot": ("strips_int.cli.plot", "figures for papers"),
}


def all_commands(chosen: str | None = None) -> dict[str, tuple[str, str]]:
    """The core commands, then the registered grounders' (loaded only when ``chosen`` is not a core command)."""
    if chosen in COMMANDS:
        return COMMANDS
    from strips_int.grounders import commands

    return {**COMMANDS, **{name: found for name, found in commands().items() if name not in COMMANDS}}


@command
def main(argv: Sequence[str] | None = None) -> int:
    """``strips-int COMMAND ...``: the chosen command's ``main`` with the rest of the arguments."""
    parser = Parser(prog="strips-int", description="Who is helping whom: interdependencies "
                    "between agents in recorded games, via STRIPS/PDDL.")
    parser.add_argument("--version", action="version", version=f"strips-int {version()}")
    argv = list(sys.argv[1:] if argv is None else argv)
    known = all_commands(argv[0] if argv else None)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, text) in known.items():
        commands.add_parser(name, help=text, add_help=False)
    chosen, rest = parser.parse_known_args(argv[:1])
    module = importlib.import_module(known[chosen.command][0])
    return module.main([*rest, *argv[1:]], prog=f"strips-int {chosen.command}")
