"""The fuzz suite of issue 15: every input either reads and analyses, or is one bounded error line naming its file.

Each test mutates small valid inputs (synthesized Overcooked games in every
format, the repository's traces, PDDL, SAR logs and scenarios, a hanab.live Hanabi game) with
hypothesis: structure-aware (drop keys, change types, NaN/inf/huge numbers,
deep nesting, long strings, lists sharing their halves, cut lists) and as
bytes (truncated, spliced, random). Runs are derandomized (the ``fuzz``
profile), so CI sees the same examples every time; ``FUZZ_SCALE=10`` runs ten
times as many for a local campaign. A few inputs of each kind also go through
the real command lines.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fuzz_inputs import (BIG_NUMBER, DEEP_ARRAY, DOMAINS, GRID, HH_2019, KIT_PASS, KIT_PROBLEM, PROBLEMS, SAR_LOGS,
                         SCENARIOS, TRACES, check_cli, csv_rows, csv_text, episode_game, expect_error, hh_2019_rows,
                         huge_string_pickle, json_text, mutated_pddl, npz_bytes, pickle_bytes, read_and_analyse,
                         reset_pddl_parsers, rollout_arrays, rollout_list, run_cli, shared_halves, two_episodes,
                         user_study_game, v2_rollout_arrays, written)
from hanabi_json import COLOUR, DISCARD, HELP, PLAY, RANK, RED, clue_and_discard, game
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from strips_int import load_domain
from strips_int.model.problem import load_problem

SCALE = int(os.environ.get("FUZZ_SCALE", "1"))
settings.register_profile(
    "fuzz", derandomize=True, database=None, deadline=timedelta(seconds=20), max_examples=40 * SCALE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
FUZZ = settings.get_profile("fuzz")


def fuzz(examples: int) -> settings:
    """The fuzz profile with ``examples`` examples per test (times FUZZ_SCALE)."""
    return settings(FUZZ, max_examples=examples * SCALE)


# ---------------------------------------------------------------- mutations

#: Values an input field may hold instead of the right one.
HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 1e308, -1, 0, 2**62, 0.5]),
    st.text(max_size=8),
    st.sampled_from(["twenty", "", "interact", "onion", "soup", "dish", "/dev/zero", "X", "player0"]),
    st.just("x" * 200_000), st.just(BIG_NUMBER), st.just(DEEP_ARRAY),
    st.integers(1, 14).map(shared_halves),
    st.lists(st.integers(-3, 6), max_size=4),
    st.dictionaries(st.sampled_from(["name", "position", "state", "players", "objects", "t", "action"]),
                    st.integers(-1, 3), max_size=3),
)


@st.composite
def mutated(draw: st.DrawFn, value: Any) -> Any:
    """``value`` (parsed JSON-like data) with one to three mutations at places drawn anywhere in it."""
    value = json.loads(json.dumps(value))  # a fresh copy; tuples become lists, as in a file
    for _ in range(draw(st.integers(1, 3))):
        parent, key, node = None, None, value
        while isinstance(node, (dict, list)) and node and draw(st.integers(0, 6)) > 0:
            key = draw(st.sampled_from(list(node))) if isinstance(node, dict) else draw(st.integers(0, len(node) - 1))
            parent, node = node, node[key]
        kind = draw(st.sampled_from(["replace", "delete", "halve", "duplicate", "add"]))
        if kind == "halve" and isinstance(node, list):
            del node[len(node) // 2:]
        elif kind == "duplicate" and isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(node)))
        elif kind == "add" and isinstance(node, dict):
            node[draw(st.sampled_from(["ep_actions", "steps", "problem", "format", "x"]))] = draw(HOSTILE)
        elif kind == "delete" and parent is not None:
            del parent[key]
        elif parent is None:
            value = draw(HOSTILE)
        else:
            parent[key] = draw(HOSTILE)
    return value


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` cut short, spliced with random bytes or with a range repeated; or random bytes."""
    kind = draw(st.sampled_from(["truncate", "splice", "repeat", "random"]))
    at = draw(st.integers(0, max(len(data) - 1, 0)))
    if kind == "truncate":
        return data[:at]
    if kind == "splice":
        return data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at + draw(st.integers(0, 16)):]
    if kind == "repeat":
        return data[:at] + data[at:at + draw(st.integers(1, 64))] * draw(st.integers(2, 50)) + data[at:]
    return draw(st.binary(max_size=512))


# ---------------------------------------------------------------- fixtures

@pytest.fixture(autouse=True)
def _fresh_parsers():
    """Each test leaves strips_int's PDDL parsers as it found them (see ``reset_pddl_parsers``)."""
    yield
    reset_pddl_parsers()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """One folder for every example's file, with the example problems the traces name and a grid file."""
    folder = tmp_path_factory.mktemp("fuzz")
    for problem in PROBLEMS:
        shutil.copy(problem, folder / problem.name)
    (folder / "scripted.grid").write_text(GRID)
    return folder


@pytest.fixture(scope="module")
def grid(workdir) -> dict[str, str]:
    """The grid option the synthesized Overcooked games need (they name a layout nobody knows)."""
    return {"grid": str(workdir / "scripted.grid")}


@pytest.fixture(scope="module")
def domains() -> dict[str, Any]:
    return {name: load_domain(path) for name, path in DOMAINS.items()}


def _trace_data() -> list[tuple[str, Any]]:
    return [(path.name, json.loads(path.read_text())) for path in TRACES]


def _loaded(paths: list[Path]) -> list[Any]:
    return [json.loads(path.read_text()) for path in paths]


# ---------------------------------------------------------------- strips-int traces

def _problem_named(trace: Any) -> tuple[str, ...]:
    """The problem file a trace names: its error may name that file instead of the trace."""
    problem = trace.get("problem") if isinstance(trace, dict) else None
    return (problem,) if isinstance(problem, str) and problem else ()


@fuzz(60)
@given(st.sampled_from(_trace_data()).flatmap(lambda item: mutated(item[1]).map(lambda data: (item[0], data))))
@example(("kit-pass.trace.json", {**json.loads(TRACES[0].read_text()), "problem": "/dev/null"}))
def test_trace_json_mutations(workdir, domains, case):
    name, data = case
    read_and_analyse(written(workdir / name, json_text(data)), domains["sar"], named=_problem_named(data))


@fuzz(30)
@given(st.sampled_from([p.read_bytes() for p in TRACES]).flatmap(damaged))
def test_trace_bytes(workdir, domains, data):
    path = written(workdir / "damaged.trace.json", data)
    try:  # damage inside the problem's name leaves JSON naming another problem file
        parsed = json.loads(data)
    except (ValueError, RecursionError):
        parsed = None
    read_and_analyse(path, domains["sar"], named=_problem_named(parsed))


# ---------------------------------------------------------------- PDDL domains and problems


@fuzz(40)
@given(st.sampled_from(sorted(DOMAINS)).flatmap(
    lambda name: mutated_pddl(DOMAINS[name].read_text()).map(lambda text: (name, text))))
def test_domain_mutations(workdir, case):
    name, text = case
    path = written(workdir / f"mutated-{name}.pddl", text)
    loaded = []
    expect_error(path, lambda: loaded.append(load_domain(path)))
    if loaded and name == "sar":
        read_and_analyse(KIT_PASS, loaded[0])


@fuzz(40)
@given(st.sampled_from(PROBLEMS).flatmap(lambda p: mutated_pddl(p.read_text()).map(lambda text: (p, text))))
def test_problem_mutations(workdir, domains, case):
    original, text = case
    path = written(workdir / f"mutated-{original.name}", text)
    problem = []
    expect_error(path, lambda: problem.append(load_problem(domains["sar"], path)))
    if problem:
        trace = next((t for t in TRACES if t.name.split(".")[0] == original.name.split(".")[0]), KIT_PASS)
        read_and_analyse(trace, domains["sar"], problem[0])


# ---------------------------------------------------------------- Overcooked: episode JSON (user study, overcooked-ai)

@fuzz(80)
@given(st.sampled_from([user_study_game(), episode_game()]).flatmap(mutated))
@example({**user_study_game(), "ep_actions": 5})
@example({k: v for k, v in user_study_game().items() if k != "ep_actions"})
def test_overcooked_json_mutations(workdir, domains, grid, data):
    read_and_analyse(written(workdir / "game_human=0.json", json_text(data)), domains["overcooked"], **grid)


@fuzz(30)
@given(st.sampled_from([json_text(user_study_game()).encode(), json_text(episode_game()).encode()]).flatmap(damaged))
def test_overcooked_json_bytes(workdir, domains, grid, data):
    read_and_analyse(written(workdir / "damaged_human=1.json", data), domains["overcooked"], **grid)


# ---------------------------------------------------------------- Overcooked: overcooked-ai human-data CSV

@fuzz(50)
@given(mutated(csv_rows()))
def test_overcooked_csv_mutations(workdir, domains, rows):
    cells = rows if isinstance(rows, list) and all(isinstance(r, dict) for r in rows) else [{"state": rows}]
    read_and_analyse(written(workdir / "trials.csv", csv_text(cells)), domains["overcooked"])


@fuzz(30)
@given(damaged(csv_text(csv_rows()).encode()))
@example(csv_text(csv_rows()).encode().replace(b"scripted", b"s" * 140_000, 1))
def test_overcooked_csv_bytes(workdir, domains, data):
    read_and_analyse(written(workdir / "damaged.csv", data), domains["overcooked"])


# ---------------------------------------------------------------- Overcooked: real overcooked-ai files

def test_the_real_files_cut_short_read_whole(workdir, domains):
    """The fuzz suite's seeds are games: each episode and trial analyses."""
    assert read_and_analyse(written(workdir / "episodes.json", json_text(two_episodes())), domains["overcooked"]) \
        == ["ok", "ok"]
    if HH_2019.is_file():
        assert read_and_analyse(written(workdir / "hh.csv", csv_text(hh_2019_rows())), domains["overcooked"]) \
            == ["ok"] * 3


@fuzz(40)
@given(mutated(two_episodes()))
@example({**two_episodes(), "mdp_params": [{"layout_name": "<img src=x onerror=alert(1)>"}] * 2})
def test_overcooked_ai_episodes_mutations(workdir, domains, data):
    """overcooked-ai's episode JSON of several episodes (its own saver's file): each episode reads, or is an
    error naming the file and the episode."""
    read_and_analyse(written(workdir / "episodes.json", json_text(data)), domains["overcooked"])


@fuzz(20)
@given(damaged(json_text(two_episodes()).encode()))
def test_overcooked_ai_episodes_bytes(workdir, domains, data):
    read_and_analyse(written(workdir / "damaged-episodes.json", data), domains["overcooked"])


needs_2019 = pytest.mark.skipif(not HH_2019.is_file(), reason="needs ../shared/data/overcooked-ai")
HH_ROWS = hh_2019_rows() if HH_2019.is_file() else [{}]


@needs_2019
@fuzz(40)
@given(mutated(HH_ROWS))
@example([{**row, "player_0_is_human": "yes"} for row in HH_ROWS])
@example([{**row, "layout_name": "cramped_room"} for row in HH_ROWS])
def test_overcooked_ai_2019_csv_mutations(workdir, domains, rows):
    """The 2019 human-human CSV, its cells and the JSON in them mutated: each trial reads, or is an error
    naming the file, the trial and the line."""
    cells = rows if isinstance(rows, list) and all(isinstance(r, dict) for r in rows) else [{"state": rows}]
    read_and_analyse(written(workdir / "hh_2019.csv", csv_text(cells)), domains["overcooked"])


@needs_2019
@fuzz(20)
@given(damaged(csv_text(HH_ROWS).encode()))
def test_overcooked_ai_2019_csv_bytes(workdir, domains, data):
    read_and_analyse(written(workdir / "damaged-hh.csv", data), domains["overcooked"])


# ---------------------------------------------------------------- Overcooked: ZSC-Eval rollout pickles

@fuzz(60)
@given(st.sampled_from([3, 4]).flatmap(lambda stride: mutated(rollout_list(stride))))
def test_rollout_pickle_mutations(workdir, domains, grid, data):
    read_and_analyse(written(workdir / "rollout__traj_0_1.pkl", pickle_bytes(data)), domains["overcooked"], **grid)


@fuzz(30)
@given(damaged(pickle_bytes(rollout_list(3))))
@example(huge_string_pickle())
def test_rollout_pickle_bytes(workdir, domains, grid, data):
    read_and_analyse(written(workdir / "damaged.pkl", data), domains["overcooked"], **grid)


# ---------------------------------------------------------------- JaxMARL rollouts (.npz)

HOSTILE_ARRAYS = st.sampled_from([
    np.array([]), np.array(np.nan), np.array([np.inf, -np.inf]), np.array([[2**62]]), np.array(-1),
    np.zeros((4, 2, 2), dtype=np.int8), np.zeros((4, 2, 2)) + np.nan, np.array(["x" * 1000]), np.array([True]),
    np.zeros((0, 2, 2), dtype=np.int64), np.full((4, 3, 5, 3), 99), np.array("strips-int/jaxmarl-overcooked/1"),
    np.array("strips-int/jaxmarl-overcooked-v2/1"), np.array('{"max_steps": -1}'), np.full((4, 4, 5, 3), 2**21),
])


@st.composite
def mutated_arrays(draw: st.DrawFn, make: Any = rollout_arrays) -> dict[str, np.ndarray]:
    """A rollout's arrays (``make()``) with one or two changes: an array dropped or replaced, an element set to an
    out-of-range value, the step axis cut."""
    arrays = make()
    for _ in range(draw(st.integers(1, 2))):
        key = draw(st.sampled_from(sorted(arrays)))
        kind = draw(st.sampled_from(["drop", "replace", "poke", "cut"]))
        if kind == "drop" and key != "format":
            del arrays[key]
        elif kind == "replace":
            arrays[key] = draw(HOSTILE_ARRAYS)
        elif kind == "poke" and arrays[key].size and arrays[key].dtype.kind in "iuf":
            flat = arrays[key].copy().ravel()
            flat[draw(st.integers(0, flat.size - 1))] = draw(st.sampled_from([-1, 3, 7, 11, 23, 24, 2**40, -(2**40)]))
            arrays[key] = flat.reshape(arrays[key].shape)
        elif kind == "cut" and arrays[key].ndim:
            arrays[key] = arrays[key][:draw(st.integers(0, len(arrays[key])))]
    return arrays


@fuzz(60)
@given(mutated_arrays())
def test_jaxmarl_npz_mutations(workdir, domains, arrays):
    read_and_analyse(written(workdir / "rollout.npz", npz_bytes(arrays)), domains["overcooked"])


@fuzz(30)
@given(damaged(npz_bytes(rollout_arrays())))
def test_jaxmarl_npz_bytes(workdir, domains, data):
    read_and_analyse(written(workdir / "damaged.npz", data), domains["overcooked"])


@fuzz(60)
@given(mutated_arrays(v2_rollout_arrays))
def test_jaxmarl_v2_npz_mutations(workdir, domains, arrays):
    read_and_analyse(written(workdir / "rollout_v2.npz", npz_bytes(arrays)), domains["overcooked"])


@fuzz(20)
@given(damaged(npz_bytes(v2_rollout_arrays())))
def test_jaxmarl_v2_npz_bytes(workdir, domains, data):
    read_and_analyse(written(workdir / "damaged_v2.npz", data), domains["overcooked"])


# ---------------------------------------------------------------- Hanabi: hanab.live game JSON

#: Besides HELP: half a game of clues and discards (40 actions), and three players' clue, plays and discard.
HANABI_GAMES = [HELP, {**game([], []), "actions": clue_and_discard(game([], [])["deck"], left=20)[0]},
                game(["y1", "r2", "g1", "b1", "b2", "r1", "r3", "g2", "p4", "y4", "g3", "p1", "b3", "r4", "y2"],
                     [(COLOUR, 1, RED), (PLAY, 5), (RANK, 0, 1), (PLAY, 0), (DISCARD, 6)], players=3)]


@fuzz(60)
@given(st.sampled_from(HANABI_GAMES).flatmap(mutated))
@example({**HELP, "deck": HELP["deck"] * 2000})
@example({**HELP, "options": {"variant": "Rainbow (6 Suits)"}})
def test_hanabi_json_mutations(workdir, domains, data):
    read_and_analyse(written(workdir / "hanabi.json", json_text(data)), domains["hanabi"])


@fuzz(20)
@given(st.sampled_from([json_text(g).encode() for g in HANABI_GAMES]).flatmap(damaged))
def test_hanabi_json_bytes(workdir, domains, data):
    read_and_analyse(written(workdir / "hanabi-damaged.json", data), domains["hanabi"])


# ---------------------------------------------------------------- SAR logs and scenarios

@fuzz(60)
@given(st.sampled_from(_loaded(SAR_LOGS)).flatmap(mutated))
def test_sar_log_mutations(workdir, domains, data):
    read_and_analyse(written(workdir / "mutated.log.json", json_text(data)), domains["sar"])


@fuzz(20)
@given(st.sampled_from([p.read_bytes() for p in SAR_LOGS]).flatmap(damaged))
def test_sar_log_bytes(workdir, domains, data):
    read_and_analyse(written(workdir / "damaged.log.json", data), domains["sar"])


@fuzz(50)
@given(st.sampled_from(_loaded(SCENARIOS)).flatmap(mutated))
def test_sar_scenario_mutations(workdir, domains, data):
    from strips_int.grounders.sar import lift_log, load_scenario, scenario_problem, simulate
    from strips_int.batch.games import analyze

    path = written(workdir / "mutated.scenario.json", json_text(data))
    expect_error(path, lambda: scenario_problem(path, domains["sar"]))
    expect_error(path, lambda: analyze(domains["sar"], lift_log(simulate(load_scenario(path))[0], domains["sar"])))


# ---------------------------------------------------------------- the command lines

def _bad_inputs(folder: Path) -> dict[str, list[Path]]:
    """One broken input of each kind per domain, and one good game of each domain."""
    folder.mkdir()
    study = user_study_game()
    study["ep_states"][0][2]["players"][0]["held_object"] = shared_halves(14)
    files = {
        "deep_human=0.json": json_text({**user_study_game(), "ep_rewards": DEEP_ARRAY}),
        "shared_human=0.json": json_text(study),
        "cut_human=0.json": json_text(user_study_game())[:300],
        "trials.csv": csv_text(csv_rows()).replace("scripted", "x" * 140_000, 1),
        "good_human=1.json": json_text(user_study_game()),
    }
    files.update({"rollout.pkl": huge_string_pickle(), "cut.pkl": pickle_bytes(rollout_list())[:200],
                  "rollout.npz": npz_bytes(rollout_arrays())[:-100]})
    files.update({
        "cut.log.json": SAR_LOGS[0].read_text()[:500],
        "steps.log.json": json_text({**json.loads(SAR_LOGS[0].read_text()), "steps": BIG_NUMBER}),
        "bad.trace.json": json_text({**json.loads(KIT_PASS.read_text()), "problem": str(KIT_PROBLEM),
                                     "steps": [{"t": "x" * 200_000}]}),
        "good.log.json": SAR_LOGS[0].read_text(),
    })
    files.update({
        "cut.hanabi.json": json_text(HELP)[:300],
        "deep.hanabi.json": json_text({**HELP, "options": DEEP_ARRAY}),
        "illegal.hanabi.json": json_text({**HELP, "actions": [{"type": 0, "target": 7}]}),
        "names.hanabi.json": json_text({**HELP, "players": ["x" * 200_000, "b"]}),
        "good.hanabi.json": json_text(HELP),
    })
    paths = sorted(written(folder / name, data) for name, data in files.items())
    kinds = {"sar": (".log.json", ".trace.json"), "hanabi": (".hanabi.json",)}
    return {"overcooked": [p for p in paths if not p.name.endswith(sum(kinds.values(), ()))],
            **{domain: [p for p in paths if p.name.endswith(ends)] for domain, ends in kinds.items()}}


@pytest.fixture(scope="module")
def bad_inputs(tmp_path_factory) -> dict[str, list[Path]]:
    return _bad_inputs(tmp_path_factory.mktemp("cli") / "games")


def _grid_option(files: list[Path], domain: str) -> list[str]:
    if domain != "overcooked":
        return []
    grid = files[0].parent.parent / "scripted.grid"
    grid.write_text(GRID)
    return ["--grid", str(grid)]


def _bad(files: list[Path]) -> list[Path]:
    return [f for f in files if not f.name.startswith("good")]


@pytest.mark.parametrize("domain", ["overcooked", "sar", "hanabi"])
def test_check_gives_one_error_line_per_bad_input(bad_inputs, domain):
    files = bad_inputs[domain]
    result = run_cli("strips_int.check", domain, *map(str, files), *_grid_option(files, domain))
    lines = check_cli(result, codes=(1,))
    assert len(lines) == len(_bad(files)), lines
    for path, line in zip(_bad(files), lines):
        assert str(path) in line, (path, line)
    assert result.stdout.decode().count("interdependencies:") == len(files) - len(_bad(files))


@pytest.mark.parametrize("domain", ["overcooked", "sar", "hanabi"])
def test_evaluate_writes_an_error_row_per_bad_input(bad_inputs, domain, tmp_path):
    files = bad_inputs[domain]
    result = run_cli("strips_int.evaluate", domain, *map(str, files), "--out", str(tmp_path / "out"), "--jobs", "1",
                     "--resamples", "10", *_grid_option(files, domain), timeout=120)
    check_cli(result, codes=(0, 1))
    with (tmp_path / "out" / "games.csv").open(newline="") as handle:
        rows = {row["source"]: row for row in csv.DictReader(handle)}
    assert sorted(rows) == sorted(map(str, files))
    assert sorted(source for source, row in rows.items() if row["error"]) == sorted(map(str, _bad(files)))
