"""Figures checked through matplotlib's artists, GraphML round trips, byte-stable output, the CLIs."""

from __future__ import annotations

import shutil

import networkx as nx
import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze, load_domain
from strips_int.check import main as check_main
from strips_int.evaluate import main as evaluate_main
from strips_int.grounders import read_input
from strips_int.plot import main as plot_main
from strips_int.visualize import graphml_graph, plot_influence, plot_summary, plot_timeline, save, write_graphml

GAME = SHARED_DATA / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"


def arrows(figure, prefix="interdependence:"):
    return [p for p in figure.axes[0].patches if (p.get_gid() or "").startswith(prefix)]


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_timeline_of_a_sar_example(sar):
    report = analyze(sar, EXAMPLES / "fire-out.trace.json")
    figure = plot_timeline(report)
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["firefighter1", "nurse1"]
    drawn = arrows(figure)
    assert len(drawn) == 2 and all(a.get_gid().endswith(":constructive") for a in drawn)
    assert legend_texts(ax)[:3] == ["constructive (2)", "looping (0)", "irrelevant (0)"]
    assert ax.get_xlabel() == "environment time step"


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_timeline_of_a_real_overcooked_game(tmp_path):
    out = tmp_path / "game.png"
    assert check_main([str(ROOT / "domains" / "overcooked.pddl"), str(GAME), "--plot", str(out)]) == 0
    assert out.stat().st_size > 10_000
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    [trace] = read_input(GAME, domain)
    report = analyze(domain, trace)
    figure = plot_timeline(report)
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["player0 (ai)", "player1 (human)", "environment"]
    drawn = arrows(figure)
    assert len(drawn) == report.counts["interdependencies"] == 26
    assert sum(a.get_gid().endswith(":looping") for a in drawn) == report.counts["looping"] == 3
    # SPEC v2 section 3: onion10 and onion12 (received at steps 150 and 156) end in soup5, which holds
    # two onions and is never served; v1 called them constructive only through (hand-empty player0).
    assert legend_texts(ax)[:3] == ["constructive (19)", "looping (3)", "irrelevant (4)"]
    # Thinned labels: a 400-step game gets at most 40 action names.
    assert 0 < len(ax.texts) <= 40
    influence = plot_influence(report, "soup1")
    assert influence.axes[0].patches and save(influence, tmp_path / "soup1.png").stat().st_size > 10_000


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_summary_figure_of_real_games(tmp_path):
    out = tmp_path / "hsp"
    assert evaluate_main([str(ROOT / "domains" / "overcooked.pddl"), str(GAME.parent), "--out", str(out)]) == 0
    assert plot_main(["summary", str(out / "summary.csv"), "--out", str(tmp_path / "summary.png")]) == 0
    left, right = plot_summary(out / "summary.csv").axes
    assert [t.get_text() for t in left.get_yticklabels()] == ["counter_circuit / hsp", "forced_coordination / hsp"]
    gids = {c.get_gid() for ax in (left, right) for c in ax.get_children() if c.get_gid()}
    assert len(gids) == 2 * 5  # two groups, five metrics (Int_cons, its required and optional parts, ...)
    assert {"constructive_required:forced_coordination / hsp", "constructive_optional:counter_circuit / hsp"} <= gids


def test_influence_graph_of_the_looping_medkit(sar):
    report = analyze(sar, EXAMPLES / "medkit-loop.trace.json")
    figure = plot_influence(report, "kit1")
    ax = figure.axes[0]
    links = {a.get_gid() for a in ax.patches if (a.get_gid() or "").startswith("link:")}
    assert links == {"link:0->1", "link:1->4"}  # nurse gives the kit to police, police gives it back
    assert [t.get_text() for t in ax.get_yticklabels()] == ["nurse1", "police1"]
    assert legend_texts(ax) == ["nurse1", "police1", "constructive", "looping", "irrelevant"]
    assert "3 steps, 2 links" in ax.get_title(loc="left")


def test_summary_figure_from_evaluation_tables(tmp_path):
    games = tmp_path / "sar"
    shutil.copytree(EXAMPLES, games, ignore=shutil.ignore_patterns("*.log.json"))  # the hand-written traces
    assert evaluate_main([str(SAR), str(games), "--out", str(tmp_path / "out"), "--jobs", "1",
                          "--group-by", "problem"]) == 0
    figure = plot_summary(tmp_path / "out" / "summary.csv")
    left, right = figure.axes
    groups = [t.get_text() for t in left.get_yticklabels()]
    assert groups == ["-"]  # traces carry no 'problem' meta key: one group
    gids = {c.get_gid() for ax in (left, right) for c in ax.get_children() if c.get_gid()}
    assert gids == {"constructive:-", "constructive_required:-", "constructive_optional:-",
                    "non_constructive:-"}  # SAR traces have no reward: no reward bar
    assert legend_texts(left) == ["Int_cons", "Int_cons,req", "Int_cons,opt", "Int_non-cons"]


def test_graphml_round_trip_with_plain_attributes(sar, tmp_path):
    report = analyze(sar, EXAMPLES / "medkit-loop.trace.json")
    path = write_graphml(report, tmp_path / "g.graphml")
    back = nx.read_graphml(path, force_multigraph=True)
    plain = graphml_graph(report)
    assert back.number_of_nodes() == report.graph.number_of_nodes()
    assert back.number_of_edges() == report.graph.number_of_edges() + len(report.interdependencies)
    for _, data in list(back.nodes(data=True)) + [(None, d) for *_, d in back.edges(data=True)]:
        assert all(isinstance(v, (str, int, bool)) for v in data.values())
    loops = [d for *_, d in back.edges(data=True) if d["link"] == "interdependence"]
    assert sorted(d["category"] for d in loops) == ["looping", "looping"]
    # police1 could get kit1 only from the nurse, who holds it from the start (so needed no help for it)
    assert [(d["category"], d["need"]) for d in loops] == [("looping", "required"), ("looping", "optional")]
    assert dict(back.nodes["init"]) == dict(plain.nodes["init"])


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_same_input_same_bytes(sar, tmp_path, suffix):
    report = analyze(sar, EXAMPLES / "kit-pass.trace.json")
    first = save(plot_timeline(report), tmp_path / f"a{suffix}").read_bytes()
    second = save(plot_timeline(report), tmp_path / f"b{suffix}").read_bytes()
    assert first == second


def test_several_traces_plot_into_a_folder(tmp_path, capsys):
    traces = sorted(EXAMPLES.glob("*.trace.json"))
    assert check_main([str(SAR), *map(str, traces), "--plot", str(tmp_path / "figs"),
                       "--graphml", str(tmp_path / "graphs")]) == 0
    assert sorted(p.name for p in (tmp_path / "figs").iterdir()) == sorted(
        t.name.removesuffix(".trace.json") + ".png" for t in traces)
    assert len(list((tmp_path / "graphs").glob("*.graphml"))) == len(traces)


def test_plot_cli_errors_are_one_line(tmp_path, capsys):
    assert plot_main(["influence", str(SAR), str(EXAMPLES / "medkit-loop.trace.json"), "--object", "zzz",
                      "--out", str(tmp_path / "x.png")]) == 2
    assert "no step mentions 'zzz'" in capsys.readouterr().err
    assert plot_main(["timeline", str(SAR), str(EXAMPLES / "kit-pass.trace.json"), "--out",
                      str(tmp_path / "x.jpg")]) == 2
    assert "unsupported figure format '.jpg'" in capsys.readouterr().err
