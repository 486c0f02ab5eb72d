"""``evaluate --out`` never destroys a study (issue 43): a folder holding another study or files no run wrote is
refused naming what is there (``--overwrite`` writes there all the same); the same command on an interrupted
study goes on from where it stopped and says so, ``--restart`` starts over. Run on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import EXAMPLES, SAR


def evaluate(*args: object) -> subprocess.CompletedProcess:
    """``strips-int evaluate ARGS`` (as ``python -m strips_int.evaluate``), one process."""
    return subprocess.run([sys.executable, "-m", "strips_int.evaluate", *map(str, args), "--jobs", "1"],
                          capture_output=True, text=True, timeout=120)


def rows(out: Path) -> list[str]:
    return (out / "games.csv").read_text().splitlines()[1:]


def test_a_folder_holding_another_study_is_refused_and_kept_until_overwrite(tmp_path):
    out = tmp_path / "study"
    assert evaluate(SAR, EXAMPLES, "--out", out).returncode == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert len(rows(out)) == 7
    other = evaluate(SAR, EXAMPLES / "kit-pass.trace.json", "--out", out)
    assert other.returncode == 2
    assert other.stderr.startswith(f"error: {out}: holds another study (a complete run of 7 files, started ")
    assert other.stderr.endswith("not the same list of game files; it is left as it is "
                                 "(--overwrite writes there anyway, or choose another --out)\n")
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    replaced = evaluate(SAR, EXAMPLES / "kit-pass.trace.json", "--out", out, "--overwrite")
    assert replaced.returncode == 0, replaced.stderr
    assert len(rows(out)) == 1


def test_the_same_study_with_other_options_is_redone_in_place(tmp_path):
    out = tmp_path / "study"
    assert evaluate(SAR, EXAMPLES, "--out", out).returncode == 0
    again = evaluate(SAR, EXAMPLES, "--out", out, "--seed", "7", "--group-by", "source")
    assert again.returncode == 0, again.stderr
    assert json.loads((out / "manifest.json").read_text())["inputs"]["options"]["seed"] == 7
    assert len(rows(out)) == 7


def test_a_folder_of_unrelated_files_is_refused_naming_them_and_overwrite_leaves_them(tmp_path):
    out = tmp_path / "papers"
    out.mkdir()
    for name in ("draft.tex", "figure.png", "notes.txt", "refs.bib"):
        (out / name).write_text(name)
    refused = evaluate(SAR, EXAMPLES, "--out", out)
    assert refused.returncode == 2
    assert refused.stderr == (f"error: {out}: holds files no run wrote (draft.tex, figure.png, notes.txt and 1 more); "
                              "it is left as it is (--overwrite writes there anyway, or choose another --out)\n")
    assert sorted(p.name for p in out.iterdir()) == ["draft.tex", "figure.png", "notes.txt", "refs.bib"]
    written = evaluate(SAR, EXAMPLES, "--out", out, "--overwrite")
    assert written.returncode == 0, written.stderr
    assert (out / "notes.txt").read_text() == "notes.txt" and len(rows(out)) == 7


def test_a_folder_with_a_foreign_manifest_is_refused(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "manifest.json").write_text('{"name": "my web app"}')
    refused = evaluate(SAR, EXAMPLES, "--out", out)
    assert refused.returncode == 2
    assert f"error: {out}: holds a manifest.json that is not a strips-int-run/1 manifest" in refused.stderr
    assert (out / "manifest.json").read_text() == '{"name": "my web app"}'


def interrupt_after(out: Path, files: int) -> None:
    """``out``'s complete run made into the run interrupted after its first ``files`` files, as the run leaves it:
    status ``interrupted``, the journal's rows with those of the files after cut off by the progress lines
    (each SAR example file holds one game: one row)."""
    manifest = json.loads((out / "manifest.json").read_text())
    (out / "manifest.json").write_text(json.dumps({**manifest, "status": "interrupted", "ended": manifest["ended"]}))
    (out / "games.progress").write_text("".join(f"{k} 1\n" for k in range(files)))
    for name in ("games.csv", "summary.csv", "summary.md", "summary.tex", "shard.json"):
        (out / name).unlink()


def test_the_same_command_on_an_interrupted_study_goes_on_and_says_so(tmp_path):
    out = tmp_path / "study"
    assert evaluate(SAR, EXAMPLES, "--out", out).returncode == 0
    whole = {name: (out / name).read_bytes() for name in ("games.jsonl", "games.csv", "summary.csv")}
    interrupt_after(out, 3)
    resumed = evaluate(SAR, EXAMPLES, "--out", out)
    assert resumed.returncode == 0, resumed.stderr
    assert (f"resuming: 3 of 7 files were done by the interrupted run in {out} (--restart starts over)"
            in resumed.stderr)
    assert {name: (out / name).read_bytes() for name in whole} == whole
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_restart_starts_an_interrupted_study_over(tmp_path):
    out = tmp_path / "study"
    assert evaluate(SAR, EXAMPLES, "--out", out).returncode == 0
    interrupt_after(out, 3)
    (out / "games.jsonl").write_text("not rows a restart may keep\n" * 7)
    restarted = evaluate(SAR, EXAMPLES, "--out", out, "--restart")
    assert restarted.returncode == 0, restarted.stderr
    assert "resuming" not in restarted.stderr and "7 games, 0 errors" in restarted.stderr
    assert "not rows" not in (out / "games.jsonl").read_text() and len(rows(out)) == 7


def test_resume_and_restart_together_are_a_usage_error(tmp_path):
    both = evaluate(SAR, EXAMPLES, "--out", tmp_path / "out", "--resume", "--restart")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
