"""The tutorial is a test: examples/plugin-keydoor, a package outside strips_int, installed the way a user
installs a plug-in, and every command of docs/environments/new-environment.md run on it in child processes.

The example is built and installed by pip (``--target``, from a copy, without dependencies) into a folder of
this test's own, which the child processes get on ``PYTHONPATH``: what pip writes (the package and its
``*.dist-info`` with the entry point) is what importlib.metadata finds, and the shared environment is left
as it was. The page's ``console`` blocks marked ``needs keydoor`` (which tests/test_docs.py skips without
the plug-in) are run here and compared as tests/test_docs.py compares them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_docs import console_steps, examples, matches, normalised, run, scratch_root

from helpers import ROOT

EXAMPLE = ROOT / "examples" / "plugin-keydoor"
GAMES = EXAMPLE / "games"
PAGE = ROOT / "docs" / "environments" / "new-environment.md"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The folder pip installed the example plug-in into (package and dist-info), from a copy of its source."""
    tmp = tmp_path_factory.mktemp("keydoor")
    source, target = tmp / "source", tmp / "site"
    shutil.copytree(EXAMPLE, source)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target",
                    str(target), str(source)], check=True, capture_output=True)
    assert (target / "keydoor" / "keydoor.pddl").is_file()
    return target


@pytest.fixture
def with_plugin(installed, monkeypatch) -> Path:
    """Child processes started from here find the plug-in (``PYTHONPATH``)."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(installed), os.environ.get("PYTHONPATH")])))
    return installed


def strips_int(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "strips_int", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "MPLBACKEND": "Agg"})


def page_examples() -> list:
    return [pytest.param(e, id=e.name) for e in examples(PAGE) if "needs keydoor" in e.directives]


def test_the_page_has_an_example_of_every_command():
    code = " ".join(e.code for e in examples(PAGE) if "needs keydoor" in e.directives)
    for command in ("strips-int check keydoor", "strips-int rc keydoor", "strips-int evaluate keydoor",
                    "strips-int plot timeline keydoor", "--html", "strips-int rc --layout corridor"):
        assert command in code


@pytest.mark.parametrize("example", page_examples())
def test_the_page_s_example_prints_what_it_shows(example, with_plugin, tmp_path):
    root = scratch_root(tmp_path)
    for command, shown in console_steps(example.code):
        printed = run(["bash", "-c", command], root).replace(str(root), ".")
        assert matches(normalised(shown, root), normalised(printed, root)), (command, printed)


def test_the_installed_grounder_is_found_by_its_entry_point(with_plugin):
    code = ("from strips_int import analyze; from strips_int.grounders import registered, kind_of, declared; "
            "import sys; g = registered()['keydoor']; print(type(g).__module__, g.domain_file.name, "
            "kind_of(sys.argv[1])[0].name, analyze('keydoor', sys.argv[1]).counts['constructive_optional'], "
            "[o.name for o, _ in declared()['--layout']])")
    done = subprocess.run([sys.executable, "-c", code, str(GAMES / "two-rooms.json")], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["keydoor", "keydoor.pddl", "keydoor", "1", "['jaxmarl',", "'overcooked',",
                                   "'keydoor']"]


def test_both_grounders_declaring_layout_work_with_the_plugin_installed(with_plugin, tmp_path):
    # keydoor's --layout reaches keydoor: a game that names no layout is read on the one given
    game = json.loads((GAMES / "two-rooms.json").read_text())
    del game["layout"]
    unnamed = tmp_path / "unnamed.json"
    unnamed.write_text(json.dumps(game))
    done = strips_int("check", "keydoor", str(unnamed), "--layout", "two-rooms", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["meta"]["layout"] == "two-rooms"
    # Overcooked's --layout reaches Overcooked in rc without DOMAIN, keydoor's with its domain
    rc = strips_int("rc", "--layout", "corridor", "--json", "--timeout", "60")
    assert rc.returncode == 0, rc.stderr
    assert json.loads(rc.stdout)["problem"] == "overcooked-corridor"
    assert json.loads(strips_int("rc", "keydoor", "--layout", "key-closet", "--json").stdout)["verdict"] == "RC"
    # with DOMAIN, only keydoor is asked: Overcooked's layout is no keydoor layout
    unknown = strips_int("rc", "keydoor", "--layout", "corridor")
    assert unknown.returncode == 2 and unknown.stderr == \
        "error: corridor: no grounder has a start problem named 'corridor'\n"


def test_a_game_that_breaks_the_rules_is_one_error_naming_its_turn(with_plugin, tmp_path):
    game = json.loads((GAMES / "key-closet.json").read_text())
    game["turns"][0]["bob"] = "up"  # into a wall
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(game))
    done = strips_int("check", "keydoor", str(bad))
    assert done.returncode == 1
    assert done.stderr == f"error: {bad}: turn 0, bob: cannot move up: a wall or a locked door\n"
