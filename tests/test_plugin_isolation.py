"""Plug-ins never collide: a file goes to the strongest claim whatever the grounders' names, recognition reads
a file's head once whatever the recognizers do, two grounders may declare the same option with their own
types, and a start problem two grounders know by one name is one error naming both."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any, Iterator

import pytest
from helpers import EXAMPLES, PROC_IO, bytes_read

from strips_int import grounders, load_problem
from strips_int.cli.check import build_parser as check_parser
from strips_int.cli.contract import grounder_options
from strips_int.cli.rc import main as rc_main
from strips_int.errors import StripsIntError
from strips_int.grounders import GAMES, HEAD_BYTES, SHAPED, TAGGED, Claim, Head, Option, kind_of, read_input
from strips_int.model.domain import load_domain

LOG = EXAMPLES / "fire-door.log.json"  # a SAR log: it names its format (TAGGED)


class Claiming:
    """A grounder of the SAR domain that claims every JSON file with the given strength (and, ``greedy``,
    reads every file whole first); it knows one start problem, kit-pass, by the name ``known``."""

    domain, actions = "sar", frozenset({"move"})

    def __init__(self, name: str, strength: int | None, greedy: bool = False, known: str = "",
                 options: tuple[Option, ...] = ()) -> None:
        self.name, self.strength, self.greedy, self.known, self.options = name, strength, greedy, known, options
        self.seen: list[Any] = []

    def recognizes(self, head: Head) -> Claim | None:
        self.seen.append(head)
        if self.greedy:
            head.whole()
        return Claim(GAMES, self.strength) if self.strength and head.path.suffix == ".json" else None

    def read(self, path: Path, domain: Any, **options: Any) -> Iterator[Any]:
        self.seen.append(options)
        return iter(())

    def start_problem(self, name: str, domain: Any, **_: Any) -> Any:
        return load_problem(domain, EXAMPLES / "kit-pass.problem.pddl") if name == self.known else None


@pytest.fixture
def added(monkeypatch):
    """Grounders registered for one test only."""
    monkeypatch.setattr(grounders, "_added", {})

    def add(*found: Claiming) -> None:
        for grounder in found:
            grounders.register(grounder)

    return add


@pytest.mark.parametrize("names", [("aaa", "zzz"), ("zzz", "aaa")])
def test_the_strongest_claim_wins_whatever_the_names(added, names):
    weak, strong = Claiming(names[0], SHAPED), Claiming(names[1], TAGGED + 1)
    added(weak, strong)
    assert kind_of(LOG) == (strong, GAMES)
    assert weak.seen[0] is strong.seen[0]  # one head, shown to both


def test_a_weaker_claim_leaves_a_file_to_its_own_grounder(added):
    added(Claiming("aaa", SHAPED))
    assert kind_of(LOG)[0].name == "sar"


@pytest.mark.parametrize("name", ["aaa", "zzz"])
def test_two_equal_claims_are_one_error_naming_both(added, name):
    added(Claiming(name, TAGGED))
    with pytest.raises(StripsIntError) as info:
        kind_of(LOG)
    names = sorted([name, "sar"], key=list(grounders.registered()).index)
    assert str(info.value) == (f"{LOG}: two grounders claim this file, {names[0]} and {names[1]}: for each it names "
                               "its format (its format is ambiguous)")
    [error] = list(read_input(LOG, load_domain("sar")))  # reading it says so, once
    assert str(error) == str(info.value)


@pytest.mark.skipif(not PROC_IO.exists(), reason="counts bytes read by /proc/self/io (Linux)")
def test_recognizing_reads_the_head_once_and_the_whole_at_most_once_whatever_the_recognizers(added, tmp_path):
    text, big = tmp_path / "big.txt", tmp_path / "big.json"
    text.write_text("x" * 1_000_000)
    big.write_text(json.dumps({"padding": "x" * 1_000_000}))  # Overcooked looks for its key in all of it
    size = big.stat().st_size
    kind_of(big)  # once before: what the recognizers import is imported
    archive = tmp_path / "notes.zip"  # a zip archive of no numpy array: JaxMARL's recognizer opens none
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("notes.txt", "x" * 1_000_000)
    for path in (text, archive):
        assert bytes_read(lambda: kind_of(path)) < HEAD_BYTES + 1024
    assert HEAD_BYTES + size <= bytes_read(lambda: kind_of(big)) < HEAD_BYTES + size + 1024
    added(*(Claiming(name, None, greedy=True) for name in ("aaa", "mmm", "zzz")))
    for path in (text, big):  # three recognizers asking for all of it: one read more, shared
        assert bytes_read(lambda: kind_of(path)) < HEAD_BYTES + path.stat().st_size + 1024


def test_two_grounders_declaring_one_flag_each_get_it_by_their_own_type(added, capsys):
    """A SAR-domain plug-in's --roles is a number; Overcooked's is a list of roles: each gets its own."""
    added(Claiming("counted", None, options=(Option("--roles", "roles", "counted: how many roles", "N", int),)))
    parser = check_parser()
    overcooked, sar = load_domain("overcooked"), load_domain("sar")
    assert grounder_options(parser, parser.parse_args(["sar", "x", "--roles", "3"]), sar) == {"roles": 3}
    assert grounder_options(parser, parser.parse_args(["overcooked", "x", "--roles", "human,ai"]), overcooked) == \
        {"roles": ("human", "ai")}
    with pytest.raises(SystemExit):
        grounder_options(parser, parser.parse_args(["sar", "x", "--roles", "human,ai"]), sar)
    assert "argument --roles: invalid int value: 'human,ai'" in capsys.readouterr().err
    text = parser.format_help()
    assert "counted: how many roles" in text and "overcooked: who played each seat" in text


def test_a_start_problem_two_grounders_know_is_one_error_naming_both(added, capsys):
    added(Claiming("toy", None, known="cramped_room", options=(Option("--layout", "layout", "toy: a name", "NAME"),)))
    assert rc_main(["--layout", "cramped_room"]) == 2
    assert capsys.readouterr().err == ("error: cramped_room: two grounders have a start problem of this name, "
                                       "overcooked (domain overcooked) and toy (domain sar): name the domain to "
                                       "choose\n")
    assert rc_main(["sar", "--layout", "cramped_room", "--json"]) == 0  # the domain chooses
    assert json.loads(capsys.readouterr().out)["problem"] == "kit-pass"


def test_an_option_no_grounder_of_the_domain_takes_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        rc_main(["sar", "--grid", "x.grid"])
    assert "argument --grid: no grounder of the sar domain takes it (overcooked do)" in capsys.readouterr().err
