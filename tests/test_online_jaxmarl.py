"""JaxMARL Overcooked V1 and V2 rollouts (made by jaxmarl in a child process) fed to the online analysis step by
step give their batch reports, number for number (docs/definitions.md section 15)."""

from __future__ import annotations

import pytest
from helpers import child_rollouts

from strips_int import load_domain
from test_online import same_reports

pytest.importorskip("jaxmarl")


@pytest.mark.parametrize("script, names", [("jaxmarl_rollouts.py", ()),
                                           ("jaxmarl_v2_rollouts.py", ("recipes_redrawn", "button_clues", "clue"))])
def test_jaxmarl_rollouts_replayed_give_their_batch_reports(tmp_path, script, names):
    rollouts = sorted(child_rollouts(script, tmp_path, *names).glob("*.npz"))
    assert len(rollouts) >= 4
    overcooked = load_domain("overcooked")
    assert sum(same_reports(overcooked, path) for path in rollouts) == len(rollouts)
