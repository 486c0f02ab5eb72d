"""``python -m strips_int.grounders.sar.simulate SCENARIO [--out LOG.json]``

Run a scenario's scripted agents in the grid world and write the episode log
(standard output without ``--out``). The run ends when every script has
finished, or after the scenario's ``max_steps`` ticks, which is then said.
Exit status: 0 done, 2 a bad scenario.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from strips_int.cli.contract import Parser, command, fail
from strips_int.errors import StripsIntError

from .formats import dump_log
from .scenario import load_scenario, simulate


@command
def main(argv: Sequence[str] | None = None, prog: str = "python -m strips_int.grounders.sar.simulate") -> int:
    parser = Parser(prog=prog,
                                     description="Simulate a search-and-rescue scenario and write its log.")
    parser.add_argument("scenario", type=Path, help="scenario JSON (strips-int-sar-scenario/1)")
    parser.add_argument("--out", type=Path, help="log file to write (default: standard output)")
    args = parser.parse_args(argv)
    try:
        scenario = load_scenario(args.scenario)
    except StripsIntError as exc:
        return fail(exc)
    log, unfinished = simulate(scenario)
    text = dump_log(log)
    if args.out is None:
        sys.stdout.write(text)
    else:
        try:
            args.out.write_text(text)
        except OSError as exc:
            print(f"error: {args.out}: cannot write: {exc}", file=sys.stderr)
            return 2
    final = log.states[-1]
    print(f"{scenario.name}: {len(log.actions)} ticks, {len(final.treated)} of {len(log.world.victims)} victims "
          f"treated" + (f"; wrote {args.out}" if args.out else ""), file=sys.stderr)
    if unfinished:
        print(f"note: stopped after max_steps={scenario.max_steps} ticks; the scripts of {', '.join(unfinished)} "
              "had not finished", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
