"""The notebook ``examples/notebooks/study.ipynb`` runs top to bottom (nbclient, the test extra), so it cannot
drift from the package (issue 43): a small study of the shipped SAR games, its DataFrames, a figure in subplots."""

from __future__ import annotations

import pytest
from helpers import ROOT

nbformat = pytest.importorskip("nbformat", reason="the test extra: pip install -e '.[test]'")
nbclient = pytest.importorskip("nbclient", reason="the test extra: pip install -e '.[test]'")

NOTEBOOK = ROOT / "examples" / "notebooks" / "study.ipynb"


def test_the_study_notebook_runs_top_to_bottom_and_shows_its_tables_and_figure():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")  # kept without outputs
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    outputs = [cell.outputs for cell in notebook.cells if cell.cell_type == "code"]
    shown = [next((o["data"]["text/plain"] for o in out if o["output_type"] == "execute_result"), "")
             for out in outputs]
    assert not [o for out in outputs for o in out if o["output_type"] == "error"]
    assert shown[0] == "7"  # the seven shipped SAR games, all analysed
    assert "kit-back-and-forth.log.json" in shown[1] and "constructive_required" in shown[1]
    assert "firefighter1 nurse1" in " ".join(shown[2].split())  # who gave whom what, by category
    assert shown[3].splitlines()[0].split() == ["subtasks", "triggers", "given", "received", "given_required"]
    assert shown[4] == "('kit-back-and-forth.log.json', 2)"  # the busiest game, two axes in our own figure
    assert any("image/png" in o.get("data", {}) for o in outputs[4])
