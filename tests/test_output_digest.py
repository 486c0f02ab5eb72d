"""The games.csv rows of the 302 user-study games are those of the start of the speed work (issue 16).

The digest was computed from the start commit's ``evaluate --jobs 1`` output
(``/tmp/ev-start/games.csv``, 302 games, 0 errors). Every column of that
output enters it, in its order; sources are taken relative to the data folder
so the digest does not depend on where the data lies. No column is excluded:
none varies between runs. Any changed count, figure or row fails the test.

definitions v3 section 11 (issue 28: one spare fresh object of each dispensed kind in every problem) changed
the triggers of 5 games, in which nobody took a dish, and nothing else in these columns (the start
commit's digest was 93b325eb...9168649): fcp/5_10_2025_17_2_9_human=0, fcp/5_10_2025_23_52_35_human=0,
fcp/5_9_2025_14_3_5_human=1 (both players' triggers 2 -> 3), fcp/5_10_2025_23_53_58_human=1 (the
human's 2 -> 3), fcp/5_9_2025_14_1_29_human=0 (the AI's 3 -> 4), with their % triggers and % not accepted.
definitions v3 section 6 (issue 27: relaxed reachability keeps negative preconditions) changed 5 more, on
counter_circuit: one hand-over on a counter that only the partner's starting cell touches is required
(section 10), where it was optional (human_received_required and ai_given_required 0 -> 1, and in two of
them constructive_required / constructive_optional by one): cole/5_10_2025_17_21_36_human=1,
cole/5_11_2025_0_18_59_human=1, mep/5_10_2025_17_34_17_human=1, mep/5_9_2025_14_48_11_human=1,
mep/5_9_2025_21_0_34_human=0.

Issue 44 added columns (definitions section 13: the games' attempts and blocks, each role's blocks given
and received). The start digest covers the start commit's columns only, so it is unchanged: blocks change
no other number. The new columns have a digest of their own (``BLOCK_DIGEST``), taken from this
revision's output (5,394 blocks on 5,578 attempts in the 302 games) and checked the same way.
"""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path

import pytest

from helpers import ROOT, SHARED_DATA
from strips_int.cli.evaluate import main

STUDY = SHARED_DATA / "user-study"
#: The columns of the start commit's games.csv, in order.
COLUMNS = (
    "source,folder,layout,agent,partner,roles,reward,terrain,rules,format,steps,goal_facts,goal_achieved,"
    "interdependencies,constructive,non_constructive,looping,irrelevant,constructive_required,"
    "constructive_optional,human_subtasks,human_triggers,human_accepted_triggers,human_pct_triggers,"
    "human_pct_not_accepted,human_given,human_received,human_given_required,human_received_required,"
    "ai_subtasks,ai_triggers,ai_accepted_triggers,ai_pct_triggers,ai_pct_not_accepted,ai_given,ai_received,"
    "ai_given_required,ai_received_required,error"
).split(",")
DIGEST = "4cd7717130a1d3d0678bebbac041f8f9f724c2781fedff32d5a039a64bd9c2a1"
#: The columns issue 44 added (every user-study game records attempts), and their digest.
BLOCK_COLUMNS = ("source,attempts,blocks,human_blocks_given,human_blocks_received,ai_blocks_given,"
                 "ai_blocks_received").split(",")
BLOCK_DIGEST = "bc0b950bab284569e96792735811f7e4696900af9795cdbb91aadd4510f035da"


def rows_digest(games_csv: Path, data: Path, columns=COLUMNS) -> tuple[int, str]:
    """The number of rows and the sha256 of the rows (``columns`` only, sources relative to ``data``)."""
    with open(games_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    prefix = str(data) + "/"
    canonical = []
    for row in rows:
        values = [row[column] for column in columns]  # a missing column is a KeyError: a changed output
        values[0] = values[0].removeprefix(prefix)
        canonical.append(values)
    canonical.sort()
    return len(rows), hashlib.sha256(json.dumps(canonical).encode()).hexdigest()


@pytest.mark.skipif(not STUDY.is_dir(), reason="needs ../shared/data")
def test_user_study_rows_are_those_of_the_start_commit(tmp_path):
    out = tmp_path / "study"
    assert main([str(ROOT / "domains" / "overcooked.pddl"), str(STUDY), "--out", str(out), "--jobs", "1"]) == 0
    assert rows_digest(out / "games.csv", STUDY) == (302, DIGEST)
    assert rows_digest(out / "games.csv", STUDY, BLOCK_COLUMNS) == (302, BLOCK_DIGEST)


def test_the_digest_sees_a_changed_count(tmp_path):
    """A games.csv that differs in one count gets another digest (the test above cannot pass by accident)."""
    row = dict.fromkeys(COLUMNS, "0") | {"source": "/data/a.json", "error": ""}
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    for path, looping in ((first, "0"), (second, "1")):
        with open(path, "w", newline="") as handle:
            writer = csv.DictWriter(handle, COLUMNS)
            writer.writeheader()
            writer.writerow(row | {"looping": looping})
    assert rows_digest(first, Path("/data"))[1] != rows_digest(second, Path("/data"))[1]
