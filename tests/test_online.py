"""The online analysis (docs/definitions.md section 15): fed one step at a time, each interdependence is told at
its receiver's step, each sub-task and trigger at its step, and the final report equals the batch report of the
whole game, number for number (their JSON dicts), on every kind of game the tests read (JaxMARL's in
``test_online_jaxmarl.py``, overcooked-ai's live environment in ``test_online_overcooked_ai.py``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from helpers import EXAMPLES, ROOT, SHARED_DATA
from spec_oracle import random_walk

from strips_int import StripsIntError, analyze_run, execute, load_domain, load_problem, read_games
from strips_int.batch.games import analyze_file
from strips_int.online import Online, replay, replay_games

DATA = ROOT / "tests" / "data"
USER_STUDY = SHARED_DATA / "user-study"
needs_data = pytest.mark.skipif(not USER_STUDY.is_dir(), reason="../shared/data is absent")


def same_reports(domain, path: Path, problem=None, **options) -> int:
    """How many games of ``path`` were compared: each replayed step by step gives the batch report's JSON."""
    batch = list(analyze_file(domain, path, problem, **options))
    online = list(replay_games(domain, path, problem, **options))
    assert [r for r in batch if isinstance(r, StripsIntError)] == [], path
    assert len(online) == len(batch) > 0, path
    for one, other in zip(batch, online, strict=True):
        assert not isinstance(other, StripsIntError), other
        assert other.to_dict() == one.to_dict(), one.source
        assert other.counts == one.counts and other.tasks == one.tasks, one.source
    return len(batch)


@pytest.fixture(scope="module")
def overcooked():
    return load_domain("overcooked")


@needs_data
def test_every_user_study_game_replayed_gives_its_batch_report(overcooked):
    games = sorted(USER_STUDY.rglob("*.json"))
    assert len(games) == 302
    assert sum(same_reports(overcooked, path) for path in games) == 302


@needs_data
def test_zsceval_rollouts_replayed_give_their_batch_reports(overcooked):
    rollouts = sorted((SHARED_DATA / "zsceval-rollouts").rglob("*.pkl"))
    assert rollouts
    assert sum(same_reports(overcooked, path, ego_seat="auto:h-proxy=40,10") for path in rollouts) == len(rollouts)


@needs_data
@pytest.mark.parametrize("year", [2019, 2020])
def test_overcooked_ai_human_games_replayed_give_their_batch_reports(overcooked, year):
    assert same_reports(overcooked, SHARED_DATA / "overcooked-ai" / f"{year}_hh_trials_sample.csv") >= 3


def test_overcooked_ai_saver_files_replayed_give_their_batch_reports(overcooked):
    folder = DATA / "overcooked_ai"
    listed = json.loads((folder / "games.json").read_text())
    for name, options in listed.items():
        grid = {"grid": str(folder / options["grid"])} if "grid" in options else {}
        assert same_reports(overcooked, folder / name, **grid) == options.get("games", 1)


def test_hanabi_collab_and_sar_games_replayed_give_their_batch_reports():
    assert same_reports(load_domain("hanabi"), ROOT / "examples" / "hanabi" / "random-3p.json") == 1
    for game in ("capture", "escape"):
        [path] = (ROOT / "examples" / "collab").glob(f"{game}*.jsonl")
        assert same_reports(load_domain(f"collab_{game}"), path) >= 1
    sar = load_domain("sar")
    logs = [p for p in sorted(EXAMPLES.glob("*.json")) if not p.name.endswith(".scenario.json")]
    assert sum(same_reports(sar, path) for path in logs) == len(logs)


@pytest.mark.parametrize("domain_file, options, plan, problem", [
    ("haulage.pddl", {}, "haulage-p01.plan", "haulage-p01.pddl"),
    ("haulage-codmap.pddl", {}, "haulage-codmap.plan", "haulage-p01.pddl"),
    ("relay.pddl", {"agent-types": ["runner"]}, "relay-p01.plan", "relay-p01.pddl"),
    ("gates.pddl", {}, "gates-p01.plan", "gates-p01.pddl")])
def test_published_pddl_plans_replayed_give_their_batch_reports(domain_file, options, plan, problem):
    domain = load_domain(DATA / domain_file, options) if options else load_domain(DATA / domain_file)
    assert same_reports(domain, DATA / plan, load_problem(domain, DATA / problem)) == 1


@pytest.mark.skipif(not (SHARED_DATA / "grf").is_dir(), reason="../shared/data/grf is absent")
def test_football_dumps_replayed_give_their_batch_reports():
    dumps = sorted((SHARED_DATA / "grf").rglob("*.dump"))
    assert dumps
    assert sum(same_reports(load_domain("football"), path) for path in dumps) == len(dumps)


def walked(domain, trace) -> None:
    """``trace`` fed to :class:`Online` gives its batch report, and each step tells what the report says of it."""
    batch = analyze_run(domain, execute(trace, domain.cache))
    online = Online(domain, trace.problem, trace.source, trace.meta)
    told, subtasks, triggers = [], set(), set()
    for step in trace.steps:
        result = online.step(step.action, step.t)
        assert result.step == step
        told += [(i.giver, i.receiver, i.facts, i.objects) for i in result.interdependences]
        subtasks |= {step.index} if result.subtask else set()
        triggers |= {step.index} if result.trigger else set()
    report = online.finish()
    assert report.to_dict() == batch.to_dict(), trace.source
    assert told == [(f.giver.index, f.receiver.index, f.facts, f.objects) for f in batch.interdependencies]
    assert subtasks == {i for tasks in batch.tasks.values() for i in tasks.subtasks}
    assert triggers == {i for tasks in batch.tasks.values() for i in tasks.triggers}


def test_random_walks_fed_step_by_step_tell_each_finding_at_its_step():
    """SAR and both Overcooked kitchens, walked at random (the oracle's walks): agents' and environment steps."""
    sar, overcooked = load_domain("sar"), load_domain("overcooked")
    problems = [(sar, load_problem(sar, path)) for path in sorted(EXAMPLES.glob("*.problem.pddl"))]
    problems += [(overcooked, load_problem(overcooked, DATA / f"kitchen-{rules}.pddl")) for rules in ("old", "new")]
    workshop = load_domain(DATA / "workshop.pddl")
    problems.append((workshop, load_problem(workshop, DATA / "workshop-p01.pddl")))
    for domain, problem in problems:
        for seed in range(4):
            walked(domain, random_walk(domain, problem, 80, seed))


def test_a_report_asked_mid_game_is_the_batch_report_of_the_steps_so_far():
    sar = load_domain("sar")
    [trace] = [t for t in replay_games(sar, EXAMPLES / "kit-back-and-forth.log.json")]
    [whole] = list(read_games(sar, EXAMPLES / "kit-back-and-forth.log.json"))
    online = Online(sar, whole.problem, whole.source, whole.meta)
    half = len(whole.steps) // 2
    for step in whole.steps[:half]:
        online.step(step.action, step.t)
    prefix = type(whole)(source=whole.source, problem=whole.problem, steps=whole.steps[:half], meta=whole.meta)
    assert online.finish().to_dict() == analyze_run(sar, execute(prefix)).to_dict()
    for step in whole.steps[half:]:
        online.step(step.action, step.t)
    assert online.finish().to_dict() == trace.to_dict()


def test_steps_given_as_text_are_grounded_and_named_in_errors():
    sar = load_domain("sar")
    problem = load_problem(sar, EXAMPLES / "kit-pass.problem.pddl")
    [trace] = list(read_games(sar, EXAMPLES / "kit-pass.trace.json"))
    online = Online(sar, problem, "live")
    for step in trace.steps:
        online.step(str(step.action), step.t)
    assert online.finish().counts == analyze_run(sar, execute(trace)).counts
    with pytest.raises(StripsIntError, match=r"live: step .* \(t=.*\).*t must be a whole number"):
        online.step(str(trace.steps[0].action), -1)
    with pytest.raises(StripsIntError, match="live: step .*unknown action 'fly'"):
        online.step("(fly nobody)")


def test_an_inapplicable_step_is_an_error_naming_it_and_changes_nothing():
    sar = load_domain("sar")
    [trace] = list(read_games(sar, EXAMPLES / "kit-pass.trace.json"))
    online = Online(sar, trace.problem, "live", trace.meta)
    online.step(trace.steps[0].action, trace.steps[0].t)
    first = trace.steps[0].action
    after = (trace.problem.init - first.delete) | first.add
    later = next(s for s in trace.steps[1:] if not s.action.applicable(after))
    with pytest.raises(StripsIntError, match=r"live: step 1 \(t=\d+, (agent \w+|environment)\): .*"):
        online.step(later.action, later.t)
    for step in trace.steps[1:]:
        online.step(step.action, step.t)
    assert online.finish().to_dict() == {**analyze_run(sar, execute(trace)).to_dict(), "source": "live"}


def test_replay_refuses_a_file_of_several_games(overcooked):
    with pytest.raises(StripsIntError, match="holds several games"):
        replay(overcooked, DATA / "overcooked_ai" / "classic_two_games.json")
    report = replay(load_domain("sar"), EXAMPLES / "kit-pass.trace.json")
    assert report.counts["constructive"] == 1


def test_objects_introduced_mid_game_count_as_initial_and_bad_introductions_are_errors(overcooked):
    """A recorded Overcooked game fed from a problem without the objects it makes (each introduced with its
    ``fresh`` fact just before its first step, a fresh object of its kind standing for it) gives the batch
    report."""
    [trace] = list(read_games(overcooked, DATA / "overcooked_ai" / "old_dynamics_cramped_room.json"))[:1]
    problem = trace.problem
    used = {arg for step in trace.steps for arg in step.action.args}
    created = {o for o in problem.objects if ("fresh", o) in problem.init and o in used}
    spares = {problem.objects[o]: o for o in problem.objects if ("fresh", o) in problem.init and o not in used}
    for kind in sorted({problem.objects[o] for o in created} - spares.keys()):  # (no spare soup: one stays)
        spares[kind] = max(o for o in created if problem.objects[o] == kind)
        created.discard(spares[kind])
    start = dataclasses.replace(problem, objects={o: t for o, t in problem.objects.items() if o not in created},
                                init=frozenset(f for f in problem.init if created.isdisjoint(f[1:])), goal=frozenset())
    online = Online(overcooked, start, trace.source, trace.meta)
    for step in trace.steps:
        new = sorted(created & set(step.action.args) - set(online.objects))
        if new:
            online.introduce({o: problem.objects[o] for o in new}, [("fresh", o) for o in new],
                             {o: spares[problem.objects[o]] for o in new})
        online.step(step.action, step.t)
    assert created and online.finish(problem).to_dict() == analyze_run(overcooked, execute(trace)).to_dict()
    name = sorted(created)[0]
    with pytest.raises(StripsIntError, match=f"object {name} is already in the game"):
        online.introduce({name: problem.objects[name]}, [], {name: spares[problem.objects[name]]})
    with pytest.raises(StripsIntError, match="needs an object of its type in the problem to stand for it"):
        online.introduce({"onion99": "onion"}, [], {"onion99": "player0"})
    with pytest.raises(StripsIntError, match=r"\(fresh onion1\) is about no object introduced"):
        online.introduce({"onion99": "onion"}, [("fresh", "onion1")], {"onion99": spares["onion"]})
    with pytest.raises(StripsIntError, match=f"lacks objects that entered the game: .*{name}"):
        online.finish(dataclasses.replace(start, goal=problem.goal))
