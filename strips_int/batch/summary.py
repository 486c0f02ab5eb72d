"""The grouped tables of a study: per group of games, each metric's n, mean, sd and 95 % bootstrap interval.

``summary.csv`` is long (one row per group and metric); ``summary.md`` has one
row per group, each cell ``mean [95 % CI]``; ``summary.tex`` is the same as
tables a two-column paper takes as they are (:func:`paper_tables`). The
metrics are reward, Int_cons (and its required and optional parts, definitions
section 10), Int_non-cons, each role's help given and received (constructive,
and its required part: who helped whom), each role's trigger percentages and, where games record
attempts, each role's blocks given and received (definitions section 13) and, with self-help costs, each
role's steps of help received (section 14).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Mapping, Sequence

from .stats import Summary, group_rows, number, summarize_all
from .tables import TEXT_WIDTH, PaperTable, Tex, tex, write_paper_tex, write_table

#: The metrics of the summary tables, with the names papers use.
METRIC_NAMES = {"reward": "reward", "constructive": "Int_cons", "constructive_required": "Int_cons,req",
                "constructive_optional": "Int_cons,opt", "non_constructive": "Int_non-cons"}
#: Each role's help (Report.agent_metrics): constructive interdependencies given and received, and their required part.
HELP_METRICS = {"given_constructive": "given", "given_constructive_required": "given req.",
                "received_constructive": "received", "received_constructive_required": "received req."}
TRIGGER_METRICS = {"pct_triggers": "%trig", "pct_not_accepted": "%not-acc"}
#: Each role's blocks given and received (definitions section 13), where games record attempts.
BLOCK_METRICS = {"blocks_given": "blocks given", "blocks_received": "blocks received"}
#: Each role's steps of help received (definitions section 14), where self-help costs were asked for.
COST_METRICS = {"help_steps_received": "steps of help received"}
ROLE_METRICS = (*HELP_METRICS, *TRIGGER_METRICS, *BLOCK_METRICS, *COST_METRICS)
#: The headers of ``summary.tex``, in LaTeX (subscripts as papers write them).
TEX_NAMES = {"reward": "reward", "constructive": Tex(r"Int\textsubscript{cons}"),
             "constructive_required": Tex(r"Int\textsubscript{cons,req}"),
             "constructive_optional": Tex(r"Int\textsubscript{cons,opt}"),
             "non_constructive": Tex(r"Int\textsubscript{non-cons}")}
#: What the cells of ``summary.md`` and ``summary.tex`` are.
NOTE = "Mean [95 % bootstrap CI] per group; (n=k) where a cell rests on fewer games; no CI under 2 games."

Groups = dict[tuple[str, ...], dict[str, Summary]]


def role_metric(column: str) -> tuple[str, str] | None:
    """``human_given_constructive`` as (``human``, ``given_constructive``); None for a column of no role."""
    for metric in ROLE_METRICS:
        if column.endswith("_" + metric) and len(column) > len(metric) + 1:
            return column[: -len(metric) - 1], metric
    return None


def summary_metrics(columns: Sequence[str]) -> list[str]:
    """Reward, Int_cons, Int_cons,req, Int_cons,opt, Int_non-cons, then each role's help given and received,
    each role's trigger percentages, then each role's blocks given and received and steps of help received
    (roles in the order of ``columns``)."""
    roles = list(dict.fromkeys(found[0] for c in columns if (found := role_metric(c))))
    present = set(columns)
    metrics = [m for m in METRIC_NAMES if m in present]
    for kind in (HELP_METRICS, TRIGGER_METRICS, BLOCK_METRICS, COST_METRICS):
        metrics += [f"{role}_{m}" for role in roles for m in kind if f"{role}_{m}" in present]
    return metrics


def is_metric(column: str) -> bool:
    """Whether :func:`summary_metrics` takes ``column`` when a game has it."""
    return column in METRIC_NAMES or role_metric(column) is not None


def summarize_games(cells: Sequence[Mapping[str, Any]], columns: Sequence[str], keys: Sequence[str],
                    resamples: int = 2000, seed: int = 0) -> tuple[list[str], Groups]:
    """Per group of the analysed games, each metric's :class:`Summary`, from the games' cells (their group
    keys and metrics as analysed: no CSV field limit, no cell made safe for spreadsheets)."""
    metrics = summary_metrics(columns)
    groups = group_rows(cells, keys)
    values = [[number(r.get(m)) for r in members] for members in groups.values() for m in metrics]
    summaries = iter(summarize_all(values, resamples, seed))  # one call: draws shared across groups
    return metrics, {group: {m: next(summaries) for m in metrics} for group in groups}


def metric_label(metric: str) -> str:
    """A metric as ``summary.md``'s header names it: ``Int_cons``, ``human given Int_cons,req``, ``%human trig``."""
    if metric in METRIC_NAMES:
        return METRIC_NAMES[metric]
    role, what = role_metric(metric) or ("", metric)
    if what in TRIGGER_METRICS:
        return f"%{role} {'trig' if what == 'pct_triggers' else 'not-acc'}"
    if what in BLOCK_METRICS or what in COST_METRICS:
        return f"{role} {BLOCK_METRICS.get(what) or COST_METRICS[what]}"
    way, _, part = what.partition("_constructive")
    return f"{role} {way} Int_cons{',req' if part else ''}"


def write_summaries(out: Path, keys: Sequence[str], metrics: Sequence[str], table: Groups) -> None:
    """``summary.csv`` (long), ``summary.md`` (one row per group: mean [95 % CI]) and ``summary.tex``
    (:func:`paper_tables`)."""
    write_table(out / "summary.csv", [*keys, "metric", "n", "mean", "sd", "ci_low", "ci_high"],
                ([*group, metric, s.n, *(f"{v:.4f}" for v in (s.mean, s.sd, s.ci_low, s.ci_high))]
                 for group, cells in table.items() for metric, s in cells.items()))

    def cell(s: Summary, mean: str | None, games: int) -> str:
        if mean is None:
            return "-"
        text = mean if s.n < 2 else f"{mean} [{s.ci_low:.2f}, {s.ci_high:.2f}]"
        return text if s.n == games else f"{text} (n={s.n})"

    pair = _mirrored(_help_metrics(metrics), _roles(metrics), table)
    directed = _directed(metrics, pair, table)
    shown = [m for m in metrics if m not in directed or not directed[m]]
    header = [*keys, "games", *(_direction(m, pair) if m in directed else metric_label(m) for m in shown)]
    body = []
    for group, cells in table.items():
        games = _games(cells)
        means = printed_means(cells, shown, dict.fromkeys(shown, 2))
        body.append([*group, str(games), *(cell(cells[m], means.get(m), games) for m in shown)])
    note = NOTE + (f" {SUMS_NOTE}" if set(SUMS["constructive"]) <= set(shown) else "") + (
        f" Two roles: {pair[0]}→{pair[1]} is what {pair[0]} gave and {pair[1]} received." if pair else "")
    write_table(out / "summary.md", header, body, note, left=len(keys))
    write_paper_tex(out / "summary.tex", paper_tables(keys, metrics, table),
                    "strips_int summary tables: mean and, below it, 95 % bootstrap CI per group of games.\n"
                    "Needs \\usepackage{booktabs}; sized for a 10 pt two-column article (table: one column, "
                    "table*: the page).")


#: Each total of the summaries with the parts that add up to it (docs/definitions.md section 10): the parts are
#: printed so that they add up to the total as printed (:func:`adding_up`).
SUMS = {"constructive": ("constructive_required", "constructive_optional")}
SUMS_NOTE = "Int_cons,req and Int_cons,opt are rounded so that they add up to Int_cons as printed."


def adding_up(total: float, parts: Sequence[float], digits: int) -> list[str]:
    """``parts`` (which add up to ``total``) rounded to ``digits`` decimals so that they add up to ``total``
    rounded: each rounded down, then those with the largest remainders up (the largest-remainder method), so
    each is within one unit of its last digit. Parts that do not add up to the total are rounded each alone."""
    unit = 10**digits
    target = round(float(f"{total:.{digits}f}") * unit)
    scaled = [part * unit for part in parts]
    down = [math.floor(x + 1e-9) for x in scaled]  # (1e-9: 8.1 * 10 is 80.99999999999999)
    short = target - sum(down)
    if not 0 <= short <= len(parts) or abs(sum(parts) - total) > 1e-9 * max(1.0, abs(total)):
        return [f"{part:.{digits}f}" for part in parts]
    for i in sorted(range(len(parts)), key=lambda i: scaled[i] - down[i], reverse=True)[:short]:
        down[i] += 1
    return [f"{value / unit:.{digits}f}" for value in down]


def printed_means(cells: Mapping[str, Summary], metrics: Sequence[str], digits: Mapping[str, int]) -> dict[str, str]:
    """Each metric's mean as a table prints it (none for a metric no game has), the parts of each of
    :data:`SUMS` rounded so that they add up to its total as printed (when all rest on the same games)."""
    shown = {m: f"{cells[m].mean:.{digits[m]}f}" for m in metrics if cells[m].n}
    for total, parts in SUMS.items():
        together = (total, *parts)
        if (all(m in shown for m in together) and len({cells[m].n for m in together}) == 1
                and len({digits[m] for m in together}) == 1):
            shown.update(zip(parts, adding_up(cells[total].mean, [cells[m].mean for m in parts], digits[total])))
    return shown


def _roles(metrics: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Each role metric of ``metrics`` with its role and what it counts (:func:`role_metric`)."""
    return {m: found for m in metrics if (found := role_metric(m))}


def _help_metrics(metrics: Sequence[str]) -> list[str]:
    """The metrics of each role's help given and received (:data:`HELP_METRICS`)."""
    return [m for m, (_, what) in _roles(metrics).items() if what in HELP_METRICS]


def _directed(metrics: Sequence[str], pair: tuple[str, str] | None, table: Groups) -> dict[str, bool]:
    """The metrics of the two mirrored roles ``pair`` that a table shows by direction: each one's help given
    (False: shown) and received (True: left out, the other's given cell for cell); likewise their blocks
    (definitions section 13) where each one's received are the other's given in every group."""
    if pair is None:
        return {}
    roles = _roles(metrics)
    directed = {m: roles[m][1].startswith("received_") for m in _help_metrics(metrics) if roles[m][0] in pair}
    given, received = (tuple(f"{x}_blocks_{way}" for x in pair) for way in ("given", "received"))
    if all(m in metrics for m in given + received) and all(
            _same(cells[x], cells[y]) for cells in table.values() for x, y in zip(received, given[::-1])):
        directed.update({**dict.fromkeys(given, False), **dict.fromkeys(received, True)})
    return directed


def _direction(metric: str, pair: tuple[str, str]) -> str:
    """``human→ai Int_cons`` for ``human_given_constructive`` of the mirrored roles ``pair`` (``human→ai
    blocks`` for ``human_blocks_given``)."""
    role, what = _roles([metric])[metric]
    other = pair[1] if role == pair[0] else pair[0]
    if what in BLOCK_METRICS:
        return f"{role}→{other} blocks"
    return f"{role}→{other} Int_cons{',req' if what.endswith('_required') else ''}"


def _games(cells: Mapping[str, Summary]) -> int:
    return max((s.n for s in cells.values()), default=0)


#: A column of a paper table: the upper header over it (a role, or empty), the metric and its header.
Column = tuple[Any, str, Any]


def paper_tables(keys: Sequence[str], metrics: Sequence[str], table: Groups) -> list[PaperTable]:
    """The tables of ``summary.tex``: the interdependencies (with reward), who helped whom, and triggers,
    each split into parts where it would not fit a page (:data:`~.tables.TEXT_WIDTH`), a role's columns
    kept together where they fit. Who helped whom is by direction (``human -> ai``: Int_cons and its
    required part) where two roles mirror each other (one's received is the other's given in every
    group, as in every two-agent game), else each role's given and received. A cell is the mean with its
    interval below, to the decimals the table's largest mean needs for three significant digits (at most
    two; reward on its own)."""
    named = [tex(k) for k in keys]
    by = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else "".join(named) or "group"
    roles = _roles(metrics)
    help_metrics = _help_metrics(metrics)
    pair = _mirrored(help_metrics, roles, table)
    if pair:
        help_columns = [(_arrow(a, pair), f"{a}_{m}", name) for a, b in (pair, pair[::-1])
                        for m, name in (("given_constructive", TEX_NAMES["constructive"]),
                                        ("given_constructive_required", "req."))]
        help_caption = (rf"Who helped whom, by {by}: the constructive interdependencies per game that one role gave "
                        r"the other (A$\to$B: A gave, B received), and the required part of them (req.).")
    else:
        help_columns = [(roles[m][0], m, HELP_METRICS[roles[m][1]]) for m in help_metrics]
        help_caption = (rf"Who helped whom, by {by}: the constructive interdependencies each role gave and received "
                        r"per game, and the required part of each (req.).")
    directed = _directed(metrics, pair, table)
    block_columns = [(_arrow(roles[m][0], pair), m, "blocks") if pair and m in directed else
                     (roles[m][0], m, BLOCK_METRICS[roles[m][1]].split()[1] if roles[m][1] in BLOCK_METRICS
                      else "help steps")
                     for m in metrics if m in roles and (roles[m][1] in BLOCK_METRICS or roles[m][1] in COST_METRICS)
                     and not directed.get(m)]
    block_caption = (rf"Blocks and help's worth, by {by}: " + (
        r"the attempts of one role the other made fail per game (A$\to$B: A gave, B received)"
        if any(m in directed for m in metrics if m in roles and roles[m][1] in BLOCK_METRICS) else
        "the attempts of partners each role made fail per game (given), its own attempts partners made fail "
        "(received)") + r" and, where asked, the steps of help each role received (the sum of its help's self-help "
        r"costs).")
    subjects = (
        ([("", m, TEX_NAMES[m]) for m in metrics if m in METRIC_NAMES], "summary-interdependencies",
         rf"Task reward and interdependencies per game, by {by}. Int\textsubscript{{cons}} = "
         r"Int\textsubscript{cons,req} + Int\textsubscript{cons,opt} (required and optional help; the parts' "
         r"means rounded so that they add up to the total as printed)."),
        (help_columns, "summary-help", help_caption),
        ([(roles[m][0], m, TRIGGER_METRICS[roles[m][1]]) for m in metrics
          if m in roles and roles[m][1] in TRIGGER_METRICS], "summary-triggers",
         rf"Triggers, by {by}: the percentage of each role's sub-tasks that were triggers (\%trig) and of its "
         r"triggers no partner accepted (\%not-acc)."),
        (block_columns, "summary-blocks", block_caption),
    )
    tables = []
    for columns, label, caption in subjects:
        units: list[list[Column]] = []  # the columns to keep together: those under one upper header
        for column in columns:
            if units and column[0] and units[-1][0][0] == column[0]:
                units[-1].append(column)
            else:
                units.append([column])
        parts = _pack(units, lambda part: _paper_table(keys, part, table, "", ""))
        for k, part in enumerate(parts, start=1):
            suffix = f" Part {k} of {len(parts)}." if len(parts) > 1 else ""
            tables.append(_paper_table(keys, part, table, caption + suffix,
                                       f"tab:{label}" + (f"-{k}" if len(parts) > 1 else "")))
    return tables


def _arrow(role: str, pair: tuple[str, str]) -> Tex:
    """The upper header over what ``role`` of the mirrored ``pair`` gave the other (human, an arrow, ai)."""
    return Tex(rf"{tex(role)}$\to${tex(pair[1] if role == pair[0] else pair[0])}")


def _mirrored(metrics: Sequence[str], roles: Mapping[str, tuple[str, str]], table: Groups) -> tuple[str, str] | None:
    """The two roles of ``metrics`` when each one's help received is, in every group, the other's given."""
    names = list(dict.fromkeys(roles[m][0] for m in metrics))
    if len(names) != 2:
        return None
    a, b = names
    pairs = [(f"{x}_received_constructive{part}", f"{y}_given_constructive{part}")
             for x, y in ((a, b), (b, a)) for part in ("", "_required")]
    if not all(x in metrics and y in metrics for x, y in pairs):
        return None
    return (a, b) if all(_same(cells[x], cells[y]) for cells in table.values() for x, y in pairs) else None


def _same(x: Summary, y: Summary) -> bool:
    return all(u == v or (math.isnan(u) and math.isnan(v)) for u, v in zip(vars(x).values(), vars(y).values()))


def _pack(units: list[list[Column]], build) -> list[list[Column]]:
    """Consecutive units in as few parts as fit the page, greedily; a unit wider than the page alone is cut
    into columns."""
    parts: list[list[Column]] = []
    for unit in units:
        if parts and build(parts[-1] + unit).width() <= TEXT_WIDTH:
            parts[-1] += unit
        elif build(unit).width() <= TEXT_WIDTH:
            parts.append(list(unit))
        else:
            for column in unit:
                if parts and parts[-1][0] in unit and build(parts[-1] + [column]).width() <= TEXT_WIDTH:
                    parts[-1].append(column)
                else:
                    parts.append([column])
    return parts


def _paper_table(keys: Sequence[str], columns: Sequence[Column], table: Groups, caption: str,
                 label: str) -> PaperTable:
    counts = [m for _, m, _ in columns if m != "reward"]  # one quantity: one number of decimals
    digits = dict.fromkeys(counts, _decimals([cells[m].mean for cells in table.values() for m in counts]))
    digits["reward"] = _decimals([cells["reward"].mean for cells in table.values() if "reward" in cells])
    fewer = False
    rows = []
    for group, cells in table.items():
        games = _games(cells)
        row: list[Any] = [*group, str(games)]
        means = printed_means(cells, [m for _, m, _ in columns], digits)
        for _, m, _ in columns:
            s, d = cells[m], digits[m]
            if s.n == 0:
                row.append("-")
                continue
            below = f"[{s.ci_low:.{d}f}, {s.ci_high:.{d}f}]" if s.n >= 2 else ""
            if s.n != games:
                below, fewer = f"{below} n={s.n}".strip(), True
            row.append((means[m], below))
        rows.append(row)
    groups: list[tuple[Any, int]] = [("", len(keys) + 1)]
    for upper, _, _ in columns:
        if upper and groups[-1][0] == upper:
            groups[-1] = (upper, groups[-1][1] + 1)
        else:
            groups.append((upper, 1))
    note = (r" Mean, and below it the 95\,\% bootstrap CI; n: games per row"
            + (r" (n=k beside a CI: the games a cell rests on, where fewer)." if fewer else "."))
    return PaperTable(caption + note if caption else "", label, [*keys, "n", *(h for _, _, h in columns)], rows,
                      groups if any(upper for upper, _ in groups) else (), left=len(keys))


def _decimals(means: Sequence[float]) -> int:
    largest = max((abs(m) for m in means if not math.isnan(m)), default=0.0)
    return 2 if largest < 10 else 1 if largest < 1000 else 0
