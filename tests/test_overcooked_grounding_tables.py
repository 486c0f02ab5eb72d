"""The first pass of reading: a schema grounds an atom by list comprehensions (and skips the equality
check when it has none), and the Overcooked lifter looks an atom up in its shared grounder's ``grounded`` table
before calling it. The ground actions, their sharing between games and the messages stay as they were."""

from __future__ import annotations

import pytest
from helpers import ROOT, SHARED_DATA

from strips_int import StripsIntError, load_domain
from strips_int.model.domain import parse_domain
from strips_int.grounders.overcooked import formats, lift
from strips_int.grounders.overcooked.layouts import OLD_RULES_NAMES, get_layout
from strips_int.model.trace import ActionGrounder

USER_STUDY = SHARED_DATA / "user-study"

EQUAL_DOMAIN = """(define (domain hop)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types cell agent)
  (:predicates (at ?a - agent ?c - cell) (free ?c - cell))
  (:action hop
    :parameters (?a - agent ?from - cell ?to - cell)
    :precondition (and (at ?a ?from) (free ?to) (not (= ?from ?to)))
    :effect (and (at ?a ?to) (not (at ?a ?from)) (free ?from) (not (free ?to))))
  (:action stay
    :parameters (?a - agent ?here - cell ?there - cell)
    :precondition (and (at ?a ?here) (= ?here ?there))
    :effect (and)))
"""


@pytest.fixture(scope="module")
def overcooked():
    return load_domain(ROOT / "domains" / "overcooked.pddl")


@pytest.fixture(scope="module")
def study_games():
    files = sorted(USER_STUDY.glob("*/*.json"))
    if len(files) != 302:
        pytest.skip("needs ../shared/data")
    return [formats._typed_episode(path.read_bytes(), str(path), None) for path in files]


def by_substitution(args: tuple[str, ...], templates) -> frozenset:
    """The facts of ``templates`` with each parameter replaced by its argument, written out plainly."""
    binding = dict(enumerate(args))
    return frozenset((pred, *(binding.get(term, term) for term in terms)) for pred, terms in templates)


def test_every_atom_of_the_study_grounds_to_the_facts_of_its_schema(overcooked, study_games):
    grounder = lift.layout_grounder(overcooked)
    for game in study_games[::10]:
        lift.lift_game(game, get_layout(OLD_RULES_NAMES.get(game.layout, game.layout)), overcooked, grounder=grounder)
    assert len(grounder.grounded) > 500
    for atom, action in grounder.grounded.items():
        schema, args = overcooked.schemas[atom[0]], atom[1:]
        assert (action.name, action.args) == (atom[0], args)
        assert action.actor == (None if schema.actor is None else args[schema.actor])
        for facts, templates in ((action.pre, schema.pre), (action.neg_pre, schema.neg_pre),
                                 (action.add, schema.add), (action.delete, schema.delete)):
            assert facts == by_substitution(args, templates)
        assert action is overcooked.ground(schema, args)  # the one per domain


def test_equalities_still_decide_and_name_what_failed():
    domain = parse_domain(EQUAL_DOMAIN, "hop.pddl")
    hop, stay = domain.schemas["hop"], domain.schemas["stay"]
    assert hop.failed_equalities(("a", "c1", "c1")) == ["(not (= c1 c1))"]
    assert hop.failed_equalities(("a", "c1", "c2")) == []
    assert stay.failed_equalities(("a", "c1", "c2")) == ["(= c1 c2)"]
    grounder = ActionGrounder(domain, None, "game.json", objects={"a": "agent", "c1": "cell", "c2": "cell"})
    with pytest.raises(StripsIntError) as caught:
        grounder.ground(("hop", "a", "c1", "c1"), "step 3")
    assert (caught.value.source, caught.value.where, caught.value.message) == (
        "game.json", "step 3", "(hop a c1 c1) is not applicable: failed (not (= c1 c1))")
    action = grounder.ground(("hop", "a", "c1", "c2"), "step 4")
    assert action.add == {("at", "a", "c2"), ("free", "c1")} and action.neg_pre == frozenset()
    assert grounder.grounded == {("hop", "a", "c1", "c2"): action}
    # a schema without (in)equalities: none to fail, whatever its arguments
    assert load_domain(ROOT / "domains" / "overcooked.pddl").schemas["move"].failed_equalities(
        ("player0", "c1_1", "c1_1")) == []


def test_games_sharing_a_grounder_share_its_ground_actions_and_errors_name_the_game(overcooked, study_games):
    grounder = lift.layout_grounder(overcooked)
    first, second = [game for game in study_games if game.layout == study_games[0].layout][:2]
    traces = [lift.lift_game(game, get_layout(OLD_RULES_NAMES.get(game.layout, game.layout)), overcooked,
                             grounder=grounder) for game in (first, second)]
    for trace in traces:
        for step in trace.steps:
            atom = (step.action.name, *step.action.args)
            assert grounder.grounded[atom] is step.action
    shared = {id(s.action) for s in traces[0].steps} & {id(s.action) for s in traces[1].steps}
    assert len(shared) > 10  # the second game's repeated moves are the first game's values
    lifter = lift._Lifter(second, get_layout(OLD_RULES_NAMES.get(second.layout, second.layout)), overcooked,
                          grounder)
    atom = (traces[0].steps[0].action.name, *traces[0].steps[0].action.args)
    assert lifter.ground(atom, 9) is grounder.grounded[atom]
    with pytest.raises(StripsIntError) as caught:
        lifter.ground(("move", "player0", "nowhere", "c1_1"), 7)
    assert (caught.value.source, caught.value.where, caught.value.message) == (
        second.source, "step 7", "unknown object 'nowhere' in (move player0 nowhere c1_1)")
    assert ("move", "player0", "nowhere", "c1_1") not in grounder.grounded
