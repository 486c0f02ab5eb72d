"""Small frictions a new user meets: a typo is an error that says "did you mean", a likely mistake (arguments
swapped, a folder given to check, a file as --out, a CSV that is no game) is named, and library errors name
files and steps, never command-line flags (a suggestion to use another command is the command line's)."""

from __future__ import annotations

import importlib.util
import shutil

import pytest
from helpers import EXAMPLES, SAR

from strips_int import StripsIntError, analyze_games
from strips_int.batch.evaluate import Study, run_study
from strips_int.batch.engines import engine
from strips_int.cli.check import main as check_main
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.cli.merge import main as merge_main
from strips_int.cli.plot import main as plot_main
from strips_int.grounders import registered
from strips_int.grounders.overcooked import get_layout
from strips_int.model.domain import load_domain

TRACE = EXAMPLES / "kit-pass.trace.json"


@pytest.fixture
def games(tmp_path):
    """The hand-written SAR traces with their problems (four games, grouped by folder or source)."""
    folder = tmp_path / "sar"
    shutil.copytree(EXAMPLES, folder, ignore=shutil.ignore_patterns("*.log.json", "*.scenario.json"))
    return folder


def error_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "[Errno" not in err, err
    return err


def test_a_group_key_typo_is_an_error_before_the_run(games, tmp_path, capsys):
    out = tmp_path / "out"
    assert evaluate_main([str(SAR), str(games), "--out", str(out), "--jobs", "1", "--group-by", "foldr"]) == 2
    line = error_line(capsys)
    assert line.endswith("group keys: its first game has no column 'foldr' to group by (did you mean folder?)")
    assert not (out / "games.csv").exists() and not (out / "summary.csv").exists()  # no game was analysed for nothing
    assert "--" not in line


def test_a_group_key_no_game_has_is_an_error_not_one_dash_group(games, tmp_path, capsys):
    out = tmp_path / "out"
    assert evaluate_main([str(SAR), str(games), "--out", str(out), "--jobs", "1", "--group-by", "xyzzy"]) == 2
    line = error_line(capsys)
    assert line.startswith(f"error: {out / 'games.csv'}: group keys: no game has a column 'xyzzy' to group by "
                           "(the games' columns: source, folder, ")
    assert (out / "games.csv").is_file() and not (out / "summary.csv").exists()
    # The default keys (layout, agent) fit no SAR game: not an error, one group, as before.
    assert evaluate_main([str(SAR), str(games), "--out", str(out), "--jobs", "1"]) == 0
    assert "warning: no game has the group key(s) layout, agent; they read '-'" in capsys.readouterr().err


def test_the_library_checks_group_keys_without_naming_a_flag(games, tmp_path):
    study = Study(load_domain(SAR), tuple(sorted(games.glob("*.trace.json"))), {}, ("sorce",), chosen_keys=True)
    (tmp_path / "out").mkdir()
    with pytest.raises(StripsIntError, match=r"no column 'sorce' to group by \(did you mean source\?\)") as found:
        run_study(study, tmp_path / "out", ["test"], engine(1, None))
    assert "--" not in str(found.value)


def test_an_unknown_layout_says_did_you_mean():
    """What ``rc --layout cramped_rom`` prints (the command line passes the layout's error on as it is;
    run here through the library: the command line also tries JaxMARL's layouts, seconds of imports)."""
    with pytest.raises(StripsIntError) as found:
        get_layout("cramped_rom")
    line = str(found.value)
    assert "unknown layout 'cramped_rom'; did you mean cramped_room?" in line and "--" not in line
    installed = importlib.util.find_spec("overcooked_ai_py") is not None
    assert ("once it is installed" in line) is not installed  # never "install it" when it is installed
    with pytest.raises(StripsIntError) as found:
        get_layout("no_such_kitchen_at_all")
    text = str(found.value)
    assert "did you mean" not in text and "cramped_room, " in text and len(text) < 600  # names, on one bounded line


def test_swapped_arguments_are_named(tmp_path, capsys):
    assert check_main([str(TRACE), "sar"], prog="strips-int check") == 2
    assert error_line(capsys) == (f"error: {TRACE} is a game, not a PDDL domain: the domain comes first "
                                  f"(strips-int check sar {TRACE})")
    assert plot_main(["timeline", str(TRACE), str(SAR), "--out", str(tmp_path / "t.png")], prog="strips-int plot") == 2
    assert error_line(capsys).endswith(f"(strips-int plot timeline {SAR} {TRACE})")


def test_check_on_a_folder_points_to_evaluate(games, capsys):
    assert check_main(["sar", str(games)], prog="strips-int check") == 1
    assert error_line(capsys) == (f"error: {games}: a folder; check reads game files, evaluate a folder of them "
                                  f"(strips-int evaluate sar {games} --out DIR)")


def test_an_output_folder_that_is_a_file_is_a_usage_error(games, tmp_path, capsys):
    taken = tmp_path / "results"
    taken.write_text("not a folder")
    assert pytest.raises(SystemExit, evaluate_main, [str(SAR), str(games), "--out", str(taken)]).value.code == 2
    assert f"argument --out: {taken} is a file; give a folder" in error_line(capsys)
    assert pytest.raises(SystemExit, merge_main, [str(games), "--out", str(taken)]).value.code == 2
    assert f"argument --out: {taken} is a file" in error_line(capsys)
    assert check_main(["sar", str(TRACE), "--html", str(taken / "report.html")]) == 1
    assert error_line(capsys) == f"error: {taken / 'report.html'}: cannot write: {taken} is a file, not a folder"


def test_a_csv_that_is_no_game_says_so(games, tmp_path, capsys):
    notes = games / "notes.csv"
    notes.write_text("participant,comment\n1,fun\n")
    results = list(analyze_games(SAR, games))
    (error,) = [r for r in results if isinstance(r, StripsIntError)]
    assert str(error) == (f"{notes}: not a game: no grounder ({', '.join(sorted(registered()))}) reads this .csv "
                          "file, and a strips-int trace is JSON")
    assert len(results) == 5  # the four games are read all the same
