"""Figures checked through matplotlib's artists, GraphML round trips, byte-stable output, the CLIs."""

from __future__ import annotations

import csv
import shutil

import networkx as nx
import pytest
from figure_checks import labels as text_labels, legend_texts, texts_outside_or_overlapping
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze, load_domain
from strips_int.cli.check import main as check_main
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.grounders import read_input
from strips_int.cli.plot import main as plot_main
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from strips_int.visualize import (graphml_graph, parse_window, plot_agents, plot_influence, plot_summary,
                                  plot_timeline, save, write_graphml)

GAME = SHARED_DATA / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"


def arrows(figure, prefix="interdependence:"):
    return [p for p in figure.axes[0].patches if (p.get_gid() or "").startswith(prefix)]


def read_csv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def game():
    """The report of a real 400-step user-study game (246 steps, t up to about 400)."""
    if not GAME.is_file():
        pytest.skip("needs ../shared/data")
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    [trace] = read_input(GAME, domain)
    return analyze(domain, trace), trace


def test_timeline_of_a_sar_example(sar, tmp_path):
    report = analyze(sar, EXAMPLES / "fire-out.trace.json")
    figure = plot_timeline(report)
    ax = figure.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["firefighter1", "nurse1"]
    drawn = arrows(figure)
    assert len(drawn) == 2 and all(a.get_gid().endswith(":constructive") for a in drawn)
    assert legend_texts(figure) == ["constructive (2)", "looping (0)", "irrelevant (0)"]
    assert ax.get_xlabel() == "time step"
    outside, pairs, count = texts_outside_or_overlapping(figure, tmp_path / "t.png")
    assert count > 8 and outside == [] and pairs == []


def test_timeline_of_a_real_400_step_game_keeps_texts_inside_and_apart(game, tmp_path):
    report, _ = game
    assert check_main([str(ROOT / "domains" / "overcooked.pddl"), str(GAME), "--plot", str(tmp_path / "g.png")]) == 0
    assert (tmp_path / "g.png").stat().st_size > 10_000
    figure = plot_timeline(report)
    ax = figure.axes[0]
    assert ax.get_title(loc="left").startswith("forced_coordination: player0 (ai), player1 (human)\n26 inter")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["player0\n(ai)", "player1\n(human)", "env."]
    drawn = arrows(figure)
    assert len(drawn) == report.counts["interdependencies"] == 26
    assert sum(a.get_gid().endswith(":looping") for a in drawn) == report.counts["looping"] == 3
    # definitions v2 section 3: onion10 and onion12 (received at steps 150 and 156) end in soup5, which holds
    # two onions and is never served; v1 called them constructive only through (hand-empty player0).
    assert legend_texts(figure) == ["constructive (19)", "looping (3)", "irrelevant (4)"]
    # Every label names the action of a sub-task drawn at its time on its lane, and the title counts the rest.
    at = {(s.t, s.action.name) for s in report.steps}
    labels = [(t.xy[0], t.get_text()) for t in text_labels(ax)]
    # Labels keep a gap and a clear leader line (issue 33): fewer fit in one column than when they ran together.
    assert len(labels) >= 25 and all(label in at for label in labels)
    subtasks = sum(len(t.subtasks) for t in report.tasks.values())
    assert f"{subtasks - len(labels)} labels left out" in ax.get_title(loc="left")
    for suffix in ("png", "svg", "pdf"):
        outside, pairs, count = texts_outside_or_overlapping(figure, tmp_path / f"plain.{suffix}")
        assert count > 35 and outside == [] and pairs == [], suffix


def test_timeline_window(game, tmp_path):
    report, _ = game
    figure = plot_timeline(report, window=parse_window("100:200"))
    inside = [i for i in report.to_dict()["interdependencies"] if i["giver"]["t"] >= 100 and i["receiver"]["t"] <= 200]
    assert len(arrows(figure)) == len(inside) == 5
    ax = figure.axes[0]
    assert 98 < ax.get_xlim()[0] < 100 and 200 < ax.get_xlim()[1] < 202
    assert all(100 <= t.xy[0] <= 200 for t in text_labels(ax))
    outside, pairs, _ = texts_outside_or_overlapping(figure, tmp_path / "w.png")
    assert outside == [] and pairs == []
    assert plot_main(["timeline", str(ROOT / "domains" / "overcooked.pddl"), str(GAME), "--window", "100:200",
                      "--out", str(tmp_path / "w.svg")]) == 0


@pytest.mark.parametrize("text", ["100", "a:b", "200:100"])
def test_bad_windows_are_one_line(text, tmp_path, capsys):
    assert plot_main(["timeline", str(SAR), str(EXAMPLES / "kit-pass.trace.json"), "--window", text,
                      "--out", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == f"error: {text}: a time window is T0:T1 with integers T0 <= T1\n"


def agent_arrows(figure):
    """{(giver, receiver, category): count} from the agent graph's arrow ids."""
    found = {}
    for patch in figure.axes[0].patches:
        if (patch.get_gid() or "").startswith("agents:"):
            pair, key, count = patch.get_gid().removeprefix("agents:").rsplit(":", 2)
            found[(*pair.split("->"), key)] = int(count)
    return found


def test_agent_graph_weights_are_the_reports_counts(game, tmp_path):
    report, _ = game
    data = report.to_dict()
    figure = plot_agents([data])
    weights = agent_arrows(figure)
    for category in ("constructive", "looping", "irrelevant"):
        assert sum(c for (_, _, k), c in weights.items() if k == category) == report.counts[category]
    for agent, row in data["agents"].items():
        assert sum(c for (g, _, _), c in weights.items() if g == agent) == row["given"]
        assert sum(c for (_, r, _), c in weights.items() if r == agent) == row["received"]
    assert weights[("player1", "player0", "constructive")] == 19  # definitions v2 (v1: 21)
    widths = {p.get_gid(): p.get_linewidth() for p in figure.axes[0].patches if p.get_gid()}
    assert max(widths, key=widths.get).startswith("agents:player1->player0:constructive")
    outside, pairs, _ = texts_outside_or_overlapping(figure, tmp_path / "a.png")
    assert outside == [] and pairs == []


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_agent_graph_of_a_batch_group_adds_up_by_role(tmp_path):
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    games = [analyze(domain, trace).to_dict() for path in sorted(GAME.parent.glob("5_11_2025_*.json"))
             for trace in read_input(path, domain)]
    assert len(games) >= 5
    weights = agent_arrows(plot_agents(games))
    assert {g for g, _, _ in weights} <= {"human", "ai"}
    for category in ("constructive", "looping", "irrelevant"):
        assert sum(c for (_, _, k), c in weights.items() if k == category) == sum(g["counts"][category] for g in games)
    human_given = sum(row["given"] for g in games for a, row in g["agents"].items() if g["meta"]["roles"][a] == "human")
    assert sum(c for (g, _, _), c in weights.items() if g == "human") == human_given
    out = tmp_path / "agents.png"
    assert plot_main(["agents", str(ROOT / "domains" / "overcooked.pddl"),
                      *map(str, sorted(GAME.parent.glob("5_11_2025_*.json"))), "--out", str(out)]) == 0
    assert out.stat().st_size > 10_000


def test_agent_graph_split_is_pluggable(sar):
    data = analyze(sar, EXAMPLES / "medkit-loop.trace.json").to_dict()
    weights = agent_arrows(plot_agents([data], split=lambda item: "goal" if item["goal_reaching"] else "no goal"))
    assert sum(weights.values()) == data["counts"]["interdependencies"] == 2
    assert {k for *_, k in weights} <= {"goal", "no goal"}


def test_influence_of_one_object_by_default(game, tmp_path):
    report, _ = game
    figure = plot_influence(report)
    ax = figure.axes[0]
    assert "influence of object onion2 from t=0: 18 steps" in ax.get_title(loc="left")
    labels = sorted((t.xy[0], t.get_text()) for t in text_labels(ax))
    assert len(labels) == 18  # every step labelled
    times = [int(text.split(":")[0]) for _, text in labels]
    assert times == sorted(times) and [x for x, _ in labels] == list(range(18))  # left to right by time
    assert legend_texts(figure) == ["causal link", "looping"]  # onion2 is passed back and forth: only looping links
    outside, pairs, _ = texts_outside_or_overlapping(figure, tmp_path / "i.png")
    assert outside == [] and pairs == []
    whole = plot_influence(report, whole=True)
    assert "246 steps, 444 links" in whole.axes[0].get_title(loc="left")  # definitions v2: deliver no longer needs (ready)
    assert legend_texts(whole) == ["causal link across lanes", "constructive", "looping", "irrelevant"]
    assert not whole.axes[0].texts
    outside, pairs, _ = texts_outside_or_overlapping(whole, tmp_path / "all.png")
    assert outside == [] and pairs == []


def test_influence_graph_of_the_looping_medkit(sar):
    report = analyze(sar, EXAMPLES / "medkit-loop.trace.json")
    figure = plot_influence(report, "kit1")
    ax = figure.axes[0]
    links = {a.get_gid() for a in ax.patches if (a.get_gid() or "").startswith("link:")}
    assert links == {"link:0->1", "link:1->4"}  # nurse gives the kit to police, police gives it back
    assert [t.get_text() for t in ax.get_yticklabels()] == ["nurse1", "police1"]
    assert legend_texts(figure) == ["looping"]
    assert "3 steps, 2 links" in ax.get_title(loc="left")


def n_texts(figure):
    return {t.get_gid(): t.get_text() for ax in figure.axes for t in ax.texts if (t.get_gid() or "").startswith("n:")}


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_summary_of_real_games_shows_n(tmp_path):
    out = tmp_path / "hsp"
    assert evaluate_main([str(ROOT / "domains" / "overcooked.pddl"), str(GAME.parent), "--out", str(out)]) == 0
    assert plot_main(["summary", str(out / "summary.csv"), "--out", str(tmp_path / "summary.png")]) == 0
    figure = plot_summary(out / "summary.csv")
    left, right = figure.axes
    rows = {(r["layout"], r["metric"]): r for r in read_csv(out / "summary.csv")}
    # n is said once per group, in its label (no metric rests on fewer games here)
    assert [t.get_text() for t in left.get_yticklabels()] == [
        f"{layout} / hsp (n={rows[layout, 'reward']['n']})" for layout in ("counter_circuit", "forced_coordination")]
    assert n_texts(figure) == {}
    gids = {c.get_gid() for ax in (left, right) for c in ax.get_children() if c.get_gid()}
    # Int_cons's parts stacked (only the non-empty one on each layout), its interval, Int_non-cons, reward
    assert {"constructive_optional:counter_circuit / hsp", "constructive_required:forced_coordination / hsp"} <= gids
    assert not {"constructive_required:counter_circuit / hsp", "constructive_optional:forced_coordination / hsp"} & gids
    assert {f"{m}:{layout} / hsp" for m in ("constructive", "non_constructive", "reward")
            for layout in ("counter_circuit", "forced_coordination")} <= gids
    outside, pairs, _ = texts_outside_or_overlapping(figure, tmp_path / "plain.png")
    assert outside == [] and pairs == []
    # A cell resting on fewer games than its row says so.
    table = (out / "summary.md").read_text()
    not_acc = rows["counter_circuit", "human_pct_not_accepted"]
    assert int(not_acc["n"]) < int(rows["counter_circuit", "reward"]["n"])
    assert f"(n={not_acc['n']})" in table.split("counter_circuit")[1].split("\n")[0]


def test_summary_of_single_games_has_no_interval(tmp_path):
    games = tmp_path / "sar"
    shutil.copytree(EXAMPLES, games, ignore=shutil.ignore_patterns("*.log.json"))  # the hand-written traces
    assert evaluate_main([str(SAR), str(games), "--out", str(tmp_path / "out"), "--jobs", "1",
                          "--group-by", "source"]) == 0
    figure = plot_summary(tmp_path / "out" / "summary.csv")
    left, right = figure.axes
    assert len(left.get_yticklabels()) == 4  # one game per group
    assert all(t.get_text().endswith(" (n=1)") for t in left.get_yticklabels()) and n_texts(figure) == {}
    assert not [c for c in left.collections if (c.get_gid() or "").startswith(("constructive", "non_constructive:"))]
    assert legend_texts(figure) == [r"$\mathrm{Int}_{\mathrm{cons,req}}$", r"$\mathrm{Int}_{\mathrm{cons,opt}}$",
                                    r"$\mathrm{Int}_{\mathrm{non\text{-}cons}}$", "95 % CI of the mean"]
    table = (tmp_path / "out" / "summary.md").read_text()
    assert "[" not in table.split("\n\n", 1)[1] and "nan" not in table


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


def test_the_text_check_sees_crops_and_overlaps(tmp_path):
    figure = Figure(figsize=(2, 1))
    FigureCanvasAgg(figure)
    ax = figure.subplots()
    ax.set_title("a title far too long to fit inside a two-inch wide figure")
    ax.text(0.5, 0.5, "take")
    ax.text(0.52, 0.5, "take")
    outside, pairs, _ = texts_outside_or_overlapping(figure, tmp_path / "bad.png")
    assert "a title far too long to fit inside a two-inch wide figure" in outside and ("take", "take") in pairs


def test_agents_cli_without_games_is_one_line(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert plot_main(["agents", str(SAR), str(tmp_path / "empty"), "--out", str(tmp_path / "a.png")]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / 'empty'}: no game files\n"
