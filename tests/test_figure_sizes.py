"""Every figure at the size it claims (one paper column, 3.4 in, or two, 7.0 in), its texts inside and apart,
its labels clear of each other's leader lines, its axes where they should start and its legends complete."""

from __future__ import annotations

import pytest
from matplotlib.text import Annotation

from figure_checks import labels, legend_texts, texts_outside_or_overlapping
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA
from strips_int import analyze
from strips_int.cli.evaluate import main as evaluate_main
from strips_int.visualize import plot_agents, plot_influence, plot_summary, plot_timeline, save
from strips_int.visualize.style import ONE_COLUMN, TWO_COLUMNS

GAME = SHARED_DATA / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"


@pytest.fixture(scope="module")
def game():
    if not GAME.is_file():
        pytest.skip("needs ../shared/data")
    return analyze(ROOT / "domains" / "overcooked.pddl", GAME)


def width(figure) -> float:
    return round(float(figure.get_figwidth()), 2)


def clean(figure, path) -> int:
    """The number of texts, after asserting none is outside the figure or on another."""
    outside, pairs, count = texts_outside_or_overlapping(figure, path)
    assert outside == [] and pairs == []
    return count


def leaders_clear(figure) -> int:
    """Each label's leader line (a text-less annotation from the point up or down to it) crosses no other
    label, and labels side by side keep a gap: returns the number of leaders."""
    figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()
    leaders = 0
    for ax in figure.axes:
        texts = labels(ax)
        boxes = [t.get_window_extent(renderer) for t in texts]
        for a, box in enumerate(boxes):  # at least 1 pt between two labels of one level
            for other in boxes[a + 1:]:
                if box.y0 < other.y1 and other.y0 < box.y1:
                    gap = max(other.x0 - box.x1, box.x0 - other.x1)
                    assert gap >= figure.dpi / 72, (texts[a].get_text(), gap)
        for line in (t for t in ax.texts if isinstance(t, Annotation) and not t.get_text()):
            leaders += 1
            line.update_positions(renderer)
            path = line.arrow_patch.get_window_extent(renderer).shrunk(1.0, 0.9)  # not its ends
            own = [b for b, t in zip(boxes, texts) if t.xy == line.xy]
            assert own, "a leader belongs to a label"
            assert not any(path.overlaps(b) for b in boxes if all(b is not o for o in own)), line.xy
    return leaders


def test_one_column_figures_of_the_sar_examples(tmp_path):
    fire = analyze(SAR, EXAMPLES / "fire-out.trace.json")
    kit = analyze(SAR, EXAMPLES / "kit-back-and-forth.log.json")
    figures = {"timeline": plot_timeline(fire), "sar-timeline": plot_timeline(kit), "agents": plot_agents(
        [fire.to_dict(), kit.to_dict()]), "influence": plot_influence(fire, "kitchen")}
    for name, figure in figures.items():
        assert width(figure) == ONE_COLUMN, name
        clean(figure, tmp_path / f"{name}.png")
    # Saved at 300 dpi: 1,020 pixels across, the size it claims.
    from PIL import Image

    path = save(figures["timeline"], tmp_path / "t.png")
    assert Image.open(path).size[0] == round(ONE_COLUMN * 300)
    # A title breaks between agents, never inside one ("nurse1\n(nurse)") or inside a hyphenated name.
    title = figures["sar-timeline"].axes[0].get_title(loc="left")
    head = title.split("\n")[:-1]
    assert all(line.endswith((",", ":")) for line in head[:-1]) and "kit-back-and-forth:" in title
    assert "nurse1 (nurse)" in title and "police1 (police)" in title
    # The influence graph's legend names the grey causal links as well as the categories.
    assert legend_texts(figures["influence"]) == ["causal link", "constructive"]


def test_figures_of_a_real_game_are_one_or_two_columns(game, tmp_path):
    timeline = plot_timeline(game)
    assert width(timeline) == ONE_COLUMN and width(plot_timeline(game, width=TWO_COLUMNS)) == TWO_COLUMNS
    assert clean(timeline, tmp_path / "t.png") > 30
    assert leaders_clear(timeline) >= 5  # labels stacked above the first level hang on their leaders
    window = plot_timeline(game, window=(100, 200))
    assert width(window) == ONE_COLUMN and clean(window, tmp_path / "w.png") > 15 and leaders_clear(window) >= 3
    influence = plot_influence(game)  # onion2: 18 steps do not fit one column with their labels
    assert width(influence) == TWO_COLUMNS
    clean(influence, tmp_path / "i.png")
    leaders_clear(influence)
    whole = plot_influence(game, whole=True)
    assert width(whole) == TWO_COLUMNS
    clean(whole, tmp_path / "all.png")
    title = whole.axes[0].get_title(loc="left")
    drawn = [p for p in whole.axes[0].patches if (p.get_gid() or "").startswith("link:")]
    # Only the links across lanes are drawn (the rest are each agent's own chain, along its lane).
    assert "444 links (376 within one lane, not drawn)" in title and len(drawn) == 444 - 376
    assert legend_texts(whole) == ["causal link across lanes", "constructive", "looping", "irrelevant"]
    few = plot_influence(game, "soup1")
    assert width(few) == (ONE_COLUMN if len(labels(few.axes[0])) <= 7 else TWO_COLUMNS)


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_the_summary_figure_is_two_columns_counts_from_zero_with_n_once(tmp_path):
    out = tmp_path / "hsp"
    assert evaluate_main(["overcooked", str(GAME.parent), "--out", str(out), "--jobs", "1"]) == 0
    figure = plot_summary(out / "summary.csv")
    assert width(figure) == TWO_COLUMNS and figure.get_figheight() < 3.5
    left, right = figure.axes
    assert left.get_xlim()[0] == 0  # counts start at 0, never -2.5
    ticks = [t.get_text() for t in left.get_yticklabels()]
    assert ticks == ["counter_circuit / hsp (n=36)", "forced_coordination / hsp (n=37)"]
    assert not [t for ax in figure.axes for t in ax.texts if t.get_text().startswith("n=")]  # n said once
    # Int_cons is one bar, its required and optional parts stacked: the parts end where Int_cons's mean is.
    bars = {p.get_gid(): p for p in left.patches if p.get_gid()}
    for group in ("counter_circuit / hsp", "forced_coordination / hsp"):
        parts = [bars[f"{m}:{group}"] for m in ("constructive_required", "constructive_optional")
                 if f"{m}:{group}" in bars]
        assert len(parts) == 1 and parts[0].get_x() == 0  # on these layouts help is all one or the other
        assert bars[f"non_constructive:{group}"].get_y() > parts[0].get_y()  # beside it, not inside
    legend = legend_texts(figure)
    assert legend[:3] == [r"$\mathrm{Int}_{\mathrm{cons,req}}$", r"$\mathrm{Int}_{\mathrm{cons,opt}}$",
                          r"$\mathrm{Int}_{\mathrm{non\text{-}cons}}$"] and "95 % CI" in legend[3]
    colours = [h.get_facecolor() for h in figure.legends[0].legend_handles[:2]]
    grey = [0.2126 * r + 0.7152 * g + 0.0722 * b for r, g, b, _ in colours]  # as grey print shows them
    assert colours[0] != colours[1] and abs(grey[0] - grey[1]) > 0.2
    clean(figure, tmp_path / "s.png")
