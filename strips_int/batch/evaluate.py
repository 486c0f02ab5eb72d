"""Many games analysed into paper tables: rows in memory (:func:`evaluate_games`) or a study's output folder
(:func:`run_study`).

A study's folder holds:

* ``games.jsonl`` then ``games.csv``: one row per game (source, group keys,
  reward, every count, each role's trigger figures and required
  interdependencies given and received, error);
* ``summary.csv`` (long: one row per group and metric), ``summary.md`` and
  ``summary.tex``: n, mean, standard deviation and 95 % bootstrap interval of
  reward, Int_cons (and its required and optional parts, definitions section 10),
  Int_non-cons and the trigger percentages, per group (:mod:`.summary`);
* ``shard.json`` and ``manifest.json`` (:mod:`.shards`, :mod:`.outputs`).

Rows are streamed to disk as games finish, so memory stays flat in the number
of games; a broken game is a row with its error, whatever broke it, a dead
worker process included. The folder is locked, written atomically, described
by ``manifest.json`` and resumable after an interruption (:mod:`.outputs`).
"""

from __future__ import annotations

import contextlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from strips_int.analysis.frames import dataframe
from strips_int.analysis.report import Report
from strips_int.errors import StripsIntError, argument, closest, number_argument, of_type
from strips_int.grounders import check_options
from strips_int.model.domain import Domain
from strips_int.model.task import Problem

from .engines import Engine, Processes, engine
from .games import analyze_file, game_files, named_domain, paths_argument
from .journal import Tally, journal_tally, read_journal, stream, write_games_csv
from .outputs import JOURNAL, PROGRESS, fresh, now, resumable, run_inputs, unfinished_run, write_run_manifest
from .rows import Row, game_row
from .shards import Shard, manifest, pick, write_manifest
from .summary import summarize_games, write_summaries


def evaluate_games(domain: Domain | str | Path, *paths: str | Path, jobs: int = 1, scheduler: str | None = None,
                   frame: bool = False, problem: Problem | None = None, **options: Any) -> Any:
    """The rows of ``games.csv`` for every game under ``paths`` (files or folders), as a list of dicts,
    or a ``pandas.DataFrame`` with ``frame=True`` (``pip install strips_int[pandas]``).

    ``jobs`` local processes, or the Dask cluster at ``scheduler``; ``problem`` is every plan's and trace's
    (default: a trace's own, the one beside a plan); ``options`` are grounder options (``layout``,
    ``roles``, ...); a broken game is a row with its error.

    Parameters:
        domain: a loaded domain, a PDDL path, or a packaged domain's name.
        *paths: game files and folders (walked).
        jobs: local processes.
        scheduler: the address of a Dask cluster (``tcp://host:8786``) or ``local``, instead of processes.
        frame: a pandas DataFrame instead of a list of dicts.
        problem: the problem of every plan and trace.
        **options: grounder options by name.

    Returns:
        The rows of ``games.csv``: a list of dicts, or a DataFrame with ``frame``.
    """
    number_argument("evaluate_games", "jobs", jobs, 1, whole=True)
    argument("evaluate_games", "scheduler", scheduler, scheduler is None or (isinstance(scheduler, str) and scheduler),
             "None, 'local' or a Dask scheduler's address tcp://HOST:PORT")
    of_type("evaluate_games", "frame", frame, bool, "True or False")
    of_type("evaluate_games", "problem", problem, (Problem, type(None)), "None or a Problem (strips_int.load_problem)")
    domain = named_domain(domain, "evaluate_games")
    files, _ = game_files(paths_argument("evaluate_games", paths))
    check_options(files, options)
    rows = [row for file in engine(jobs, scheduler).rows(domain, files, with_problem(options, problem))
            for row in file]
    return dataframe(rows) if frame else rows


def with_problem(options: Mapping[str, Any], problem: Problem | None) -> Mapping[str, Any]:
    """What each file is read with: the grounder options, and the problem every plan and trace is given."""
    return options if problem is None else {**options, "problem": problem}


def write_tables(out: Path, keys: Sequence[str], resamples: int, seed: int, check_keys: bool = False) -> list[str]:
    """``games.csv`` and the summaries from ``out/games.jsonl``; returns the games table's columns. With
    ``check_keys`` (keys a user chose), a group key no game has is an error (after ``games.csv``): its
    summaries would be one meaningless group."""
    columns, cells = read_journal(out / JOURNAL, keys)
    write_games_csv(out / JOURNAL, out / "games.csv", columns)
    if check_keys and cells:
        unknown_keys(keys, columns, str(out / "games.csv"))
    metrics, table = summarize_games(cells, columns, keys, resamples, seed)
    write_summaries(out, keys, metrics, table)
    return columns


def unknown_keys(keys: Sequence[str], columns: Sequence[str], where: str, who: str = "no game has a column") -> None:
    """Raise, naming ``where`` the columns come from, when a group key is none of ``columns``: "did you
    mean agent?" for a close one (:func:`~strips_int.errors.closest`), else the columns there are."""
    missing = [k for k in keys if k not in columns]
    if not missing:
        return
    key = missing[0]
    close = closest(key, [c for c in columns if c != "error"])
    hint = f"did you mean {close}?" if close else f"the games' columns: {', '.join(columns[:12])} ..."
    raise StripsIntError(where, "group keys", f"{who} {key!r} to group by ({hint})")


def check_group_keys(domain: Domain, files: Sequence[Path], options: Mapping[str, Any], keys: Sequence[str],
                     tries: int = 3) -> None:
    """Before a run, a group key that is plainly a typo: none of the columns of the first game that can be
    analysed (of the first ``tries`` files) but close to one of them (``agnet``: did you mean agent?). A key
    far from all of them may be another file's, so it is left to :func:`write_tables`."""
    for path in files[:tries]:
        for result in analyze_file(domain, path, **options):
            if isinstance(result, Report):
                columns = list(game_row(result))
                close = [k for k in keys if k not in columns
                         and closest(k, columns)]
                unknown_keys(close, columns, str(path), "its first game has no column")
                return
            break  # the file's first game failed: its error row will say why; try the next file


@dataclass(frozen=True)
class Study:
    """What one run evaluates and how: the domain, the whole list of game files (the shard picks its part),
    the grounder options, the summaries' group keys and bootstrap settings, the pragmas given with the
    domain and the problem given for every plan and trace. ``chosen_keys``: the group
    keys are a user's choice, not the default, so one that no game has is an error (a default key such as
    ``layout`` may fit no game of another environment: its games are then one group)."""

    domain: Domain
    files: tuple[Path, ...]
    options: Mapping[str, Any]
    group_by: tuple[str, ...] = ("layout", "agent")
    resamples: int = 2000
    seed: int = 0
    shard: Shard = Shard(0, 1)
    pragmas: Mapping[str, Sequence[str]] = field(default_factory=dict)
    problem: Problem | None = None
    chosen_keys: bool = False

    @property
    def picked(self) -> list[int]:
        """The indices of the files this shard evaluates."""
        return pick(len(self.files), self.shard)

    def inputs(self) -> dict[str, Any]:
        """What the run reads and how (a resume must find the same), as the manifest records it."""
        settings = {**self.options, "group_by": list(self.group_by), "resamples": self.resamples, "seed": self.seed}
        if self.pragmas:
            settings["pragmas"] = {key: sorted(names) for key, names in sorted(self.pragmas.items())}
        if self.problem is not None:
            settings["problem"] = self.problem.source
        return run_inputs(Path(self.domain.source), [self.files[k] for k in self.picked], settings,
                          f"{self.shard.index}/{self.shard.count}")


class Events:
    """What a run tells as it goes (a command line prints it; the default says nothing)."""

    def started(self, tally: Tally, resumed: bool) -> None:
        """The run began (``tally.done`` files were finished already when ``resumed``)."""

    def file_done(self, rows: list[Row], tally: Tally) -> None:
        """One more file's rows are in the journal."""


def run_study(study: Study, out: Path, command: Sequence[str], runner: Engine = Processes(),
              resume: bool | None = None, events: Events = Events(), replace: bool = False) -> tuple[Tally, list[str]]:
    """Evaluate the study into ``out`` (locked by the caller); returns the tally and the columns of ``games.csv``.

    ``resume``: True goes on from where an interrupted run of the same inputs stopped (an error if there is
    none), False starts over, None (the default) goes on when there is such a run and starts otherwise.
    A folder holding another study or files no run wrote is refused (:func:`~.outputs.unfinished_run`),
    unless ``replace``. ``manifest.json`` says how the run ended: an interruption (KeyboardInterrupt,
    raised on) is recorded as such. An earlier run's outputs are removed once the engine is up (a
    scheduler that cannot be reached leaves them)."""
    inputs = study.inputs()
    picked = study.picked
    files, options = [study.files[k] for k in picked], with_problem(study.options, study.problem)
    if resume is not True:  # (a resume asked for checks the folder's run itself: resumable)
        unfinished = unfinished_run(out, inputs, replace)
        resume = unfinished and resume is None
    if study.chosen_keys and not resume:
        check_group_keys(study.domain, files, options, study.group_by)
    counts = resumable(out, inputs) if resume else []
    batches = runner.rows(study.domain, files[len(counts):], options)
    if not resume:
        fresh(out)
    tally = journal_tally(out, counts, len(picked)) if counts else Tally(len(picked))
    events.started(tally, resume)
    started = now()
    write_run_manifest(out, command, inputs, started, "running", asdict(tally))
    try:
        stream(out, batches, counts, tally, events.file_done)
        write_manifest(out, manifest(Path(study.domain.source), study.files, picked, counts, study.shard,
                                     inputs["options"]))
        columns = write_tables(out, study.group_by, study.resamples, study.seed, study.chosen_keys)
    except BaseException as stop:
        with contextlib.suppress(StripsIntError):  # (a full disk) the error that stopped the run is the one to tell
            write_run_manifest(out, command, inputs, started,
                               "interrupted" if isinstance(stop, KeyboardInterrupt) else "failed", asdict(tally))
        raise
    write_run_manifest(out, command, inputs, started, "complete", asdict(tally))
    (out / PROGRESS).unlink(missing_ok=True)
    return tally, columns
