"""The HTML report's kitchens drawn with Pillow (issue 43: the report of one game took 24 s, most of it in a
matplotlib axes per drawn state): the image shows the scene the matplotlib drawing shows, tile by tile and disc by
disc, and the report draws every row's states with it. (Times are in benchmarks/html_report.py.)"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import ROOT, SHARED_DATA
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from strips_int import analyze, load_domain
from strips_int.grounders import read_input
from strips_int.grounders.overcooked.draw import TILE_COLORS, draw_kitchen, kitchen_image, kitchen_scene, tiles
from strips_int.visualize.html import states
from strips_int.visualize.style import AGENT_COLORS

GAME = SHARED_DATA / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"
pytestmark = pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")


@pytest.fixture(scope="module")
def game():
    """A forced_coordination game (5 x 5 tiles), its report and the state before its first receiver's step."""
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    [trace] = read_input(GAME, domain)
    report = analyze(domain, trace)
    first = report.to_dict()["interdependencies"][0]  # player1 puts onion1 on counter2_1, player0 takes it
    state = list(states(trace.problem.init, [s.action for s in report.steps]))[first["receiver"]["index"]]
    return trace.problem.objects, state, list(report.agents), first["objects"]


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


def test_the_image_shows_the_scene_the_matplotlib_drawing_shows(game):
    objects, state, agents, shared = game
    cells, discs = kitchen_scene(objects, state, agents, shared, AGENT_COLORS)
    image = np.asarray(kitchen_image(objects, state, agents, shared, AGENT_COLORS, (180, 160), 110))
    tile = image.shape[0] / 5
    assert image.shape[:2] == (round(5 * tile), round(5 * tile)) and tile == pytest.approx(32, abs=0.5)
    covered = {(round(d.x), round(d.y)) for d in discs}
    for x, y, colour in cells:  # each tile's corner region is its colour (discs sit in the middle)
        assert tuple(image[int((y + 0.1) * tile), int((x + 0.1) * tile)][:3]) == rgb(colour), (x, y)
    for disc in discs:
        if not disc.item:  # an agent's disc, at its tile, in its colour (left of its letter)
            assert tuple(image[int((disc.y + 0.5) * tile), int((disc.x + 0.5 - disc.radius / 2) * tile)]) == \
                rgb(disc.face)
    figure = Figure()
    ax = figure.subplots()
    draw_kitchen(ax, objects, state, agents, shared, AGENT_COLORS)  # the same scene on matplotlib axes
    assert {tuple(p.center) for p in ax.patches if isinstance(p, Circle)} == {(d.x, d.y) for d in discs}
    assert covered >= {(3, 1), (1, 1), (2, 1)}  # the two players, and onion1 on counter2_1
    assert rgb(TILE_COLORS["counter"]) in {rgb(c) for _, _, c in cells} and len(tiles(objects)) == 25


def test_a_ringed_object_is_ringed_in_red(game):
    objects, state, agents, shared = game
    (onion,) = [d for d in kitchen_scene(objects, state, agents, shared, AGENT_COLORS)[1] if d.edge == "red"]
    image = np.asarray(kitchen_image(objects, state, agents, shared, AGENT_COLORS, (180, 160), 110))
    tile = image.shape[0] / 5
    row = image[int((onion.y + 0.5) * tile)]
    ring = [x for x in range(image.shape[1]) if tuple(row[x][:3]) == (255, 0, 0)]
    assert ring and abs((min(ring) + max(ring)) / 2 / tile - (onion.x + 0.5)) < 0.1
