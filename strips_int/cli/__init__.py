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

#: subcommand -> (module whose ``main`` runs it, one-line help)
COMMANDS = {
    "check": ("strips_int.cli.check", "find who helped whom in recorded games or traces"),
    "rc": ("strips_int.cli.rc", "does a problem require cooperation? (planner)"),
    "evaluate": ("strips_int.cli.evaluate", "analyse many games and write paper tables"),
    "merge": ("strips_int.cli.merge", "merge the output folders of evaluate --shard runs"),
    "plot": ("strips_int.cli.plot", "figures for papers"),
    "simulate": ("strips_int.grounders.sar.simulate", "run a SAR scenario and write its log"),
}


@command
def main(argv: Sequence[str] | None = None) -> int:
    """``strips-int COMMAND ...``: the chosen command's ``main`` with the rest of the arguments."""
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
