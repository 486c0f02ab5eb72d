"""Issue 15 (reading) and 16 (domain cache): domains, problems, traces, SAR files and file reading.

Every malformed input ends in one :class:`StripsIntError` that names the file
and the place and describes (never echoes) the input; a compiled domain is
cached on disk as JSON and a damaged cache entry is compiled again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import EXAMPLES, SAR

from strips_int.model import domain as domain_module
from strips_int import files
from strips_int.model.domain import load_domain
from strips_int.model.problem import load_problem
from strips_int.model.domain_cache import entry
from strips_int.errors import StripsIntError
from strips_int.batch.games import game_files
from strips_int.grounders import read_input
from strips_int.grounders import sar as sar_files
from strips_int.model.trace_file import load_trace

PROBLEM = EXAMPLES / "kit-pass.problem.pddl"
TRACE = json.loads((EXAMPLES / "kit-pass.trace.json").read_text())


@pytest.fixture(autouse=True)
def own_cache(tmp_path_factory, monkeypatch):
    """Each test its own cache folder, so no test reads another's entries (or the user's)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("STRIPS_INT_CACHE", raising=False)


def one_error(call, source, where=None) -> StripsIntError:
    """The StripsIntError ``call`` raises: one short line naming ``source`` (and ``where``)."""
    with pytest.raises(StripsIntError) as info:
        call()
    text = str(info.value)
    assert "\n" not in text and len(text) < 600, text
    assert info.value.source == str(source), text
    if where is not None:
        assert info.value.where is not None and where in info.value.where, text
    return info.value


def write_trace(path: Path, **fields) -> Path:
    path.write_text(json.dumps({**TRACE, "problem": str(PROBLEM), **fields}))
    return path


# --- file reading -----------------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "nested more than 500 levels"),
    ("[" * 1_000_000, "nested more than 500 levels"),  # orjson 3.8 overflows its stack on this
    ('{"a": ' + "7" * 5000 + "}", "malformed JSON"),  # over Python's int-string limit
    ('{"a": NaN}', "malformed JSON"),
])
def test_json_beyond_the_limits_is_one_error(tmp_path, sar, text, message):
    path = tmp_path / "t.json"
    path.write_text(text)
    assert message in one_error(lambda: load_trace(path, sar), path).message


@pytest.mark.parametrize("text", ["[" * 600 + "]" * 600, '{"a": ' + "7" * 5000 + "}", '{"a": NaN}', '{"a": 1e999}'])
def test_the_json_fallback_gives_the_same_errors(tmp_path, monkeypatch, text):
    path = tmp_path / "t.json"
    path.write_text(text)
    with_orjson = one_error(lambda: files.read_json(path), path)
    monkeypatch.setattr(files, "orjson", None)
    assert one_error(lambda: files.read_json(path), path).message.split(":")[0] == with_orjson.message.split(":")[0]


def test_json_nesting_is_measured_outside_strings(tmp_path):
    """Brackets in strings do not count, and closing ones in a string cannot hide real depth."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"s": "[" * 2000 + "\\\"" + "]" * 2000, "a": [[[1]]]}))
    assert files.read_json(path)["a"] == [[[1]]]
    path.write_text('["' + "]" * 1000 + '", ' + "[" * 600 + "]" * 600 + "]")
    one_error(lambda: files.read_json(path), path)


def test_malformed_json_names_line_and_column(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{\n  "a": [1, 2,\n}')
    assert one_error(lambda: files.read_json(path), path).where == "line 3, column 1"


def test_non_utf8_file_names_its_line(tmp_path, sar):
    path = tmp_path / "t.json"
    path.write_bytes(b'{\n"format":\n"\xff\xfe"}')
    error = one_error(lambda: load_trace(path, sar), path, "line 3")
    assert "not UTF-8" in error.message


def test_files_over_the_size_limit_are_refused(tmp_path, monkeypatch):
    path = tmp_path / "t.json"
    path.write_text("[1, 2, 3]")
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 8)
    assert "larger than" in one_error(lambda: files.read_json(path), path).message


#: A 10 GB file, sparse (nothing written, nothing need be read), of each kind a game reader sniffs: empty, or
#: opening as its format does (an overcooked-ai CSV header, an episode JSON's first key, a hanab.live game's
#: first action with no card yet: the Hanabi sniffer read such a file whole, 3 GB for a 3 GB file).
SPARSE = {"big.json": b"", "big.csv": b"", "episode.json": b'{"ep_states": [', "trials.csv": b"state,joint_action\n",
          "hanabi.json": b'{"players": ["a", "b"], "actions": [{"type": 0, "target": 1, "value": 0}'}


def sparse_games(folder: Path) -> list[Path]:
    folder.mkdir()
    paths = []
    for name, head in SPARSE.items():
        path = folder / name
        path.write_bytes(head)
        os.truncate(path, 10 * 2**30)
        paths.append(path)
    return paths


def test_10_gb_files_are_refused_by_their_size_before_a_byte_is_read(tmp_path):
    """The Overcooked sniffer read a sparse 10 GB .json or .csv whole (MemoryError under 3 GB, or minutes and
    10 GB without): each is one line, refused by its size, under run_cli's 3 GB memory limit."""
    from fuzz_inputs import check_cli, run_cli

    from strips_int.grounders import registered

    paths = sparse_games(tmp_path / "games")
    lines = check_cli(run_cli("strips_int.check", "overcooked", *map(str, paths)), codes=(1,))
    # (a .csv that opens as no game's CSV is told so from its first bytes, as for a file of any size)
    assert lines == [f"error: {path}: cannot read: larger than 256 MiB" if path.name != "big.csv" else
                     f"error: {path}: not a game: no grounder ({', '.join(registered())}) reads this .csv "
                     "file, and a strips-int trace is JSON" for path in paths]


def test_evaluate_neither_reads_nor_hashes_a_10_gb_file(tmp_path):
    """evaluate hashed every byte of such files for the manifest before anything else: now their size is
    recorded and no digest, and each is an error row."""
    from fuzz_inputs import check_cli, run_cli

    paths = sparse_games(tmp_path / "games")
    write_trace(tmp_path / "games" / "kit.trace.json")
    out = tmp_path / "out"
    lines = check_cli(run_cli("strips_int.evaluate", "overcooked", str(tmp_path / "games"), "--out", str(out),
                              "--jobs", "2"), codes=(1,))
    assert len(lines) == len(SPARSE) + 1  # each, and the SAR trace that is no Overcooked game
    inputs = {f["path"]: f for f in json.loads((out / "manifest.json").read_text())["inputs"]["files"]}
    for path in paths:
        assert inputs[str(path)]["size"] == 10 * 2**30 and inputs[str(path)]["sha256"] is None


def run_check(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "strips_int.check", *map(str, args)],
                          capture_output=True, text=True, timeout=60, check=False)


def test_a_trace_whose_problem_is_dev_zero_ends_at_once(tmp_path):
    """It drove a worker to 3.8 GB: devices are refused before a byte is read."""
    trace = write_trace(tmp_path / "t.json", problem="/dev/zero")
    result = run_check(SAR, trace)
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip() == (f"error: {trace}: problem: /dev/zero: cannot read: not a regular file "
                                     "(a device, FIFO or socket)")  # which trace, and which file of it


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "problem.pddl"
    os.mkfifo(fifo)
    result = run_check(SAR, write_trace(tmp_path / "t.json", problem=str(fifo)))
    assert result.returncode == 1 and "not a regular file" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_a_problem_path_to_any_file_is_described_not_echoed(tmp_path, sar):
    secret = tmp_path / "notes.txt"
    secret.write_text("hunter2-password and more\n")
    trace = write_trace(tmp_path / "t.json", problem=str(secret))
    error = one_error(lambda: load_trace(trace, sar), trace, "problem")
    assert "hunter2" not in str(error)
    assert error.message.startswith(f"{secret}: line 1, column 1: syntax error")


def test_a_folder_as_a_problem_is_one_error(tmp_path, sar):
    trace = write_trace(tmp_path / "t.json", problem=str(tmp_path))
    assert "folder" in one_error(lambda: load_trace(trace, sar), trace, "problem").message


# --- domains and problems -------------------------------------------------------------------

DOMAIN = """(define (domain d)
  (:requirements :strips :typing :negative-preconditions{requirements})
  (:types {types})
  (:constants {constants})
  (:predicates (p ?a - agent) (q ?x){predicates})
  (:action a1 :parameters (?a - agent) :precondition {pre} :effect (p ?a))
  {actions})
"""


def domain_text(requirements=" :equality", types="agent - object", constants="", predicates="", pre="(p ?a)",
                actions="") -> str:
    return DOMAIN.format(requirements=requirements, types=types, constants=constants, predicates=predicates,
                         pre=pre, actions=actions)


@pytest.mark.parametrize("change, message", [
    ({"types": "agent - b b - agent"}, "cycle"),
    ({"types": "agent - object Agent - object"}, "duplicate name"),
    ({"types": "agent - object agent - object"}, "duplicate name 'agent'"),
    ({"constants": "c1 c1 - agent"}, "duplicate name 'c1'"),
    ({"constants": "c1 - agent C1 - agent"}, "duplicate name"),
    ({"requirements": "", "pre": "(and (p ?a) (= ?a ?a))"}, "uses (= ...) without declaring :equality"),
    ({"pre": "(or (p ?a) (q ?a))"}, "(or ...), which is not STRIPS"),
    ({"pre": "(exists (?x) (q ?x))"}, "(exists ...), which is not STRIPS"),
    ({"requirements": " :disjunctive-preconditions", "pre": "(or (p ?a) (q ?a))"}, "is not STRIPS"),
    ({"actions": "(:action a1 :parameters (?a - agent) :precondition (q ?a) :effect (q ?a))"}, "declared twice"),
    ({"actions": "(:action A1 :parameters (?a - agent) :precondition (q ?a) :effect (q ?a))"}, "declared twice"),
    ({"predicates": " (Q ?y)"}, "declared twice"),
    # what pddl drops without a word: an equal definition again (its actions are a set), a parameter's second
    # name (one variable), a derived predicate (never applied)
    ({"actions": "(:action a1 :parameters (?a - agent) :precondition (p ?a) :effect (p ?a))"},
     "line 7: action a1 declared twice (first on line 6)"),
    ({"actions": "(:action a2 :parameters (?a - agent ?b ?a - agent) :precondition (p ?a) :effect (p ?a))"},
     "line 7: action a2: parameter ?a named twice"),
    ({"requirements": " :derived-predicates", "actions": "(:derived (q ?x) (p ?x))"},
     "line 7: a :derived predicate, which is not STRIPS (strips_int applies no derived predicates)"),
    ({"pre": "(not " * 3000 + "(p ?a)" + ")" * 3000}, "nested too deeply"),
    ({"requirements": " :bogus"}, "syntax error"),
])
def test_bad_domains_are_one_error(tmp_path, change, message):
    path = tmp_path / "d.pddl"
    path.write_text(domain_text(**change))
    assert message in str(one_error(lambda: load_domain(path), path))


def test_pddl_files_over_their_limit_are_refused_before_parsing(tmp_path, monkeypatch):
    """pddl parses about 5 s per MiB of dense PDDL: a 100 MB problem would run for minutes."""
    path = tmp_path / "d.pddl"
    path.write_text(domain_text(pre="(and " + "(p ?a) " * 200 + ")"))
    monkeypatch.setattr(domain_module, "MAX_PDDL_BYTES", 1000)
    assert "larger than" in one_error(lambda: load_domain(path), path).message


def test_a_failed_parse_does_not_break_the_next_one(tmp_path):
    """pddl's parser kept half-set state after an error: every later domain failed."""
    bad, good = tmp_path / "bad.pddl", tmp_path / "good.pddl"
    bad.write_text(domain_text(types="agent - object agent - object"))
    good.write_text(domain_text())
    one_error(lambda: load_domain(bad), bad)
    assert set(load_domain(good).schemas) == {"a1"}


def test_a_failed_parse_leaves_tracebacks_on(tmp_path):
    """pddl set sys.tracebacklimit to 0 while parsing and left it so when parsing failed."""
    path = tmp_path / "bad.pddl"
    path.write_text("(define (domain d) (:types a - b b - a))")
    before = getattr(sys, "tracebacklimit", None)
    one_error(lambda: load_domain(path), path)
    assert getattr(sys, "tracebacklimit", None) == before


def test_syntax_errors_keep_line_and_column_and_echo_nothing(tmp_path):
    path = tmp_path / "d.pddl"
    path.write_text("(define (domain d)\n  (:types a - object) secretname123)")
    error = one_error(lambda: load_domain(path), path, "line 2, column 23")
    assert "secretname123" not in str(error)


def test_a_bad_domain_exits_2_with_one_line(tmp_path):
    path = tmp_path / "d.pddl"
    path.write_text(domain_text(types="agent - object agent - object"))
    result = run_check(path, EXAMPLES / "kit-pass.trace.json")
    assert result.returncode == 2 and result.stderr.startswith(f"error: {path}: ")
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_domain_defining_an_action_twice_exits_2_with_one_line(tmp_path):
    """pddl kept one of two equal definitions, and check went on with the domain as if it were whole."""
    path = tmp_path / "d.pddl"
    path.write_text(domain_text(actions="(:action a1 :parameters (?a - agent) :precondition (p ?a) :effect (p ?a))"))
    result = run_check(path, EXAMPLES / "kit-pass.trace.json")
    assert (result.returncode, result.stderr) == (2, f"error: {path}: line 7: action a1 declared twice (first on "
                                                     "line 6)\n")


PROBLEM_TEXT = PROBLEM.read_text()


@pytest.mark.parametrize("old, new, message", [
    ("v2 - victim", "v2 v2 - victim", "duplicate name 'v2'"),
    ("v2 - victim", "v2 V2 - victim", "duplicate name"),
    ("(:goal (treated v2))", "(:goal (or (treated v2) (located v2)))", "(or ...), which is not STRIPS"),
    ("(:goal (treated v2))", "(:goal (exists (?v - victim) (treated ?v)))", "(exists ...), which is not STRIPS"),
    ("(:goal (treated v2))", "(:goal (not (treated v2)))", "is a negative goal literal"),
    ("v2 - victim", "v2 - zombie", "unknown type 'zombie'"),
])
def test_bad_problems_are_one_error(tmp_path, sar, old, new, message):
    path = tmp_path / "p.pddl"
    path.write_text(PROBLEM_TEXT.replace(old, new))
    assert message in str(one_error(lambda: load_problem(sar, path), path))


def test_a_problem_object_that_is_a_constant_of_another_type_is_refused(tmp_path):
    domain = tmp_path / "d.pddl"
    domain.write_text(domain_text(constants="c1 - agent"))
    problem = tmp_path / "p.pddl"
    problem.write_text("(define (problem x) (:domain d) (:objects C1 - object) (:init) (:goal (and)))")
    assert "constant" in one_error(lambda: load_problem(load_domain(domain), problem), problem).message


# --- traces -----------------------------------------------------------------------------------

HUGE = "x" * 200_000


@pytest.mark.parametrize("fields, where", [
    ({"format": {"a": 1}}, "format"),
    ({"domain": ["sar"]}, "domain"),
    ({"meta": [1, 2]}, "meta"),
    ({"steps": {"t": 0}}, "steps"),
    ({"problem": ["p"]}, "problem"),
    ({"problem": "a\0b"}, "problem"),
    ({"problem": HUGE}, "problem"),
    ({"problem": {"objects": {"v2": ["victim"]}}}, "problem.objects"),
    ({"problem": {"objects": {HUGE: "victim"}}}, "problem.objects"),
    ({"problem": {"objects": {"v2": "victim"}, "init": [HUGE]}}, "problem.init[0]"),
    ({"problem": {"objects": {"v2": "victim"}, "init": [7]}}, "problem.init[0]"),
    ({"problem": {"objects": {"v2": "victim"}, "name": {"a": [1]}}}, "problem.name"),
    ({"steps": [[1, 2]]}, "step 0"),
    ({"steps": [{"t": [0] * 1000, "action": "(move nurse1 hall storage)"}]}, "step 0"),
    ({"steps": [{"t": 10**30, "action": "(move nurse1 hall storage)"}]}, "step 0"),
    ({"steps": [{"t": True, "action": "(move nurse1 hall storage)"}]}, "step 0"),
    ({"steps": [{"t": 0, "agent": ["nurse1"], "action": "(move nurse1 hall storage)"}]}, "step 0"),
    ({"steps": [{"t": 0, "agent": HUGE, "action": "(move nurse1 hall storage)"}]}, "step 0"),
    ({"steps": [{"t": 0, "agent": "nurse1", "action": 5}]}, "step 0"),
    ({"steps": [{"t": 0, "agent": "nurse1", "action": "(" + HUGE + ")"}]}, "step 0"),
    ({"steps": [{"t": 0, "agent": "nurse1", "action": "(move " + "nurse1 " * 10_000 + ")"}]}, "step 0"),
    ({"steps": [{"t": 0, "agent": "nurse1", "action": [[[["deep"]]]]}]}, "step 0"),
])
def test_malformed_trace_fields_are_one_short_error(tmp_path, sar, fields, where):
    path = write_trace(tmp_path / "t.json", **fields)
    error = one_error(lambda: load_trace(path, sar), path, where)
    assert HUGE[:100] not in str(error)


def test_a_trace_with_deep_meta_is_refused_before_anything_recurses(tmp_path, sar):
    path = tmp_path / "t.json"
    path.write_text(json.dumps({**TRACE, "problem": str(PROBLEM)})[:-1] + ', "meta": {"a": ' + "[" * 5000 + "]" * 5000 + "}}")
    one_error(lambda: load_trace(path, sar), path)


# --- SAR logs and scenarios -------------------------------------------------------------------

LOG = json.loads((EXAMPLES / "fire-door.log.json").read_text())
SCENARIO = json.loads((EXAMPLES / "fire-door.scenario.json").read_text())


def test_a_sar_log_with_steps_before_format_is_read(tmp_path, sar):
    path = tmp_path / "late-format.log.json"
    path.write_text(json.dumps({"steps": LOG["steps"], **{k: v for k, v in LOG.items() if k != "steps"}}))
    assert sar_files.detect(path) == "log"
    [trace] = list(read_input(path, sar))
    assert len(trace.steps) == 18


def test_a_trace_that_mentions_a_scenario_tag_is_a_game(tmp_path, sar):
    path = write_trace(tmp_path / "t.json", meta={"note": "made from strips-int-sar-scenario/1 by hand"})
    assert sar_files.detect(path) is None
    walked = game_files([tmp_path])  # (games, scenarios passed over, ...)
    assert walked[0] == [path] and walked[1] == []
    [trace] = list(read_input(path, sar))
    assert len(trace.steps) == 7


def test_a_file_whose_format_tag_is_nested_is_no_sar_file(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"meta": {"format": "strips-int-sar-log/1"}}))
    assert sar_files.detect(path) is None


def log_with(change) -> dict:
    data = json.loads(json.dumps(LOG))
    change(data)
    return data


def scenario_with(change) -> dict:
    data = json.loads(json.dumps(SCENARIO))
    change(data)
    return data


@pytest.mark.parametrize("data, where", [
    (log_with(lambda d: d.update(agents={HUGE: "nurse"})), "agents"),
    (log_with(lambda d: d.update(agents={"nurse1": {"role": ["nurse"] * 1000}})), "agents nurse1 role"),
    (log_with(lambda d: d.update(grid=["." * 1000] * 1000)), "grid"),
    (log_with(lambda d: d.update(steps=d["steps"][:1] * 1002)), "steps"),
    (log_with(lambda d: d["steps"][0].update(t=[0] * 1000)), "step 0"),
    (log_with(lambda d: d["steps"][0].update(t=True)), "step 0"),
    (log_with(lambda d: d["steps"][0]["state"].update(agents={HUGE: {}})), "step 0 state agents"),
    (log_with(lambda d: d["steps"][1].update(actions={HUGE: "up"})), "step 1 actions"),
    (log_with(lambda d: d["steps"][0]["state"]["agents"]["nurse1"].update(at=[10**18, 10**18])), "step 0 state"),
    (log_with(lambda d: d.update(format={"a": [1, 2]})), "format"),
])
def test_malformed_sar_logs_are_one_short_error(tmp_path, sar, data, where):
    path = tmp_path / "bad.log.json"
    path.write_text(json.dumps(data))
    [error] = list(read_input(path, sar))
    assert isinstance(error, StripsIntError) and error.source == str(path) and where in (error.where or "")
    assert len(str(error)) < 600 and HUGE[:100] not in str(error)


@pytest.mark.parametrize("data, where", [
    (scenario_with(lambda d: d["agents"]["nurse1"].update(script=["go " + "9" * 5000 + " 1"])), "script[0]"),
    (scenario_with(lambda d: d["agents"]["nurse1"].update(script=["wait " + "9" * 12])), "script[0]"),
    (scenario_with(lambda d: d["agents"]["nurse1"].update(script=[HUGE])), "script[0]"),
    (scenario_with(lambda d: d.update(max_steps=2**62)), "max_steps"),
    (scenario_with(lambda d: d.update(legend={HUGE: "nurse1"})), "legend"),
])
def test_malformed_sar_scenarios_are_one_short_error(tmp_path, data, where):
    path = tmp_path / "bad.scenario.json"
    path.write_text(json.dumps(data))
    error = one_error(lambda: sar_files.load_scenario(path), path, where)
    assert HUGE[:100] not in str(error)


def test_the_sar_examples_still_check(sar):
    for path in sorted(EXAMPLES.glob("*.log.json")):
        [trace] = list(read_input(path, sar))
        assert not isinstance(trace, StripsIntError), trace
    for path in sorted(EXAMPLES.glob("*.scenario.json")):
        log, _ = sar_files.simulate(sar_files.load_scenario(path))
        assert log.states


# --- the domain cache (issue 16) --------------------------------------------------------------


def test_a_cached_domain_equals_the_parsed_one_and_skips_the_parser(monkeypatch):
    parsed = load_domain(SAR)
    path, _ = entry("domain", SAR.read_bytes())
    assert path.is_file() and json.loads(path.read_text())["value"]["name"] == "sar"

    def no_parser():
        raise AssertionError("the parser ran on a cache hit")

    monkeypatch.setattr(domain_module, "domain_parser", no_parser)
    cached = load_domain(SAR)
    assert cached == parsed
    assert list(cached.schemas) == list(parsed.schemas) and list(cached.predicates) == list(parsed.predicates)


def test_the_cache_is_keyed_by_content_and_names_the_file_given(tmp_path):
    copy = tmp_path / "copy.pddl"
    copy.write_bytes(SAR.read_bytes())
    load_domain(SAR)
    assert load_domain(copy).source == str(copy)
    copy.write_text(SAR.read_text().replace("(used ?k - medkit)", "(used ?k - medkit) (extra)"))
    assert "extra" in load_domain(copy).predicates


@pytest.mark.parametrize("damage", [
    lambda text: "{not json",
    lambda text: "",
    lambda text: json.dumps({"key": "another", "value": json.loads(text)["value"]}),
    lambda text: text.replace('"actor": 0', '"actor": 99'),
    lambda text: text.replace('"pre": [', '"pre": [["at", [7]], ', 1),
    lambda text: json.dumps({**json.loads(text), "value": {"name": "sar"}}),
    lambda text: json.dumps([1, 2]),
    lambda text: json.dumps({**json.loads(text), "value": {**json.loads(text)["value"], "name": 7}}),
])
def test_a_damaged_cache_entry_is_compiled_again_and_rewritten(damage):
    parsed = load_domain(SAR)
    path, key = entry("domain", SAR.read_bytes())
    path.write_text(damage(path.read_text()))
    assert load_domain(SAR) == parsed
    assert json.loads(path.read_text())["key"] == key


def test_the_cache_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("STRIPS_INT_CACHE", "0")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    load_domain(SAR)
    assert entry("domain", SAR.read_bytes()) is None and not any(tmp_path.iterdir())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_cache_entry_that_is_a_fifo_is_passed_over(tmp_path):
    """Neither read (it would wait for a writer) nor written (refused as an output): the domain compiles."""
    path, _ = entry("domain", SAR.read_bytes())
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    assert load_domain(SAR).name == "sar"


def test_an_unwritable_cache_folder_is_skipped(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert set(load_domain(SAR).schemas) >= {"move", "treat"}


def test_a_bad_domain_is_not_cached(tmp_path):
    path = tmp_path / "d.pddl"
    path.write_text(domain_text(types="agent - object agent - object"))
    one_error(lambda: load_domain(path), path)
    cache_path, _ = entry("domain", path.read_bytes())
    assert not cache_path.exists()
    one_error(lambda: load_domain(path), path)
