"""The HTML report as a reader sees it: compact rows (the reason on a line of its own), a key to the kitchens,
the two kitchens of a row told apart, and each agent's required help given and received."""

from __future__ import annotations

import base64
import io
import json
import re
import shutil
import subprocess

import matplotlib.image
import numpy as np
import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA

from strips_int import analyze
from strips_int.visualize import write_html
from strips_int.visualize.style import AGENT_COLORS

GAME = SHARED_DATA / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
#: Appended to a copy of a report: the height (px) of each interdependence's two rows, into the DOM.
MEASURE = ('<script>window.addEventListener("load", () => { const rows = [...document.querySelectorAll('
           '"tr.interdependence")].map(r => Math.round(r.getBoundingClientRect().height + '
           'r.nextElementSibling.getBoundingClientRect().height)); document.body.setAttribute("data-rows", '
           'JSON.stringify(rows)); });</script></body>')


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    if not GAME.is_file():
        pytest.skip("needs ../shared/data")
    report = analyze(ROOT / "domains" / "overcooked.pddl", GAME)
    path = write_html(report, tmp_path_factory.mktemp("html") / "game.html")
    return report, path, path.read_text()


def images(text: str, kind: str) -> list[np.ndarray]:
    return [matplotlib.image.imread(io.BytesIO(base64.b64decode(uri)), format="png")
            for uri in re.findall(rf'<img class="{kind}"[^>]*src="data:image/png;base64,([^"]+)"', text)]


def test_agents_table_has_required_help_given_and_received(page):
    report, _, text = page
    header = re.search(r"<th>agent</th>.*?</tr>", text)[0]
    assert "<th>given-req</th><th>received-req</th>" in header
    human = report.agent_metrics()["player1"]  # the human on forced_coordination hands every onion over
    assert (f'<td class="num">{human["given_required"]}</td><td class="num">{human["received_required"]}</td>'
            in text) and human["given_required"] == 25


def test_kitchens_have_a_key_and_frames_in_their_agents_colours(page):
    report, _, text = page
    (key,) = images(text, "key")
    assert key.shape[1] >= 1000 and "the objects the two share marked as the key shows" in text
    kitchens = images(text, "state")
    assert len(kitchens) == len(report.interdependencies) == 26
    first = report.to_dict()["interdependencies"][0]  # player1 gives, player0 receives
    agents = list(report.agents)
    giver, receiver = (AGENT_COLORS[agents.index(first[end]["agent"])] for end in ("giver", "receiver"))

    def count(pixels: np.ndarray, colour: str) -> int:
        rgb = np.array([int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5)])
        return int((np.abs(pixels[..., :3] - rgb).max(axis=-1) < 0.02).sum())

    image = kitchens[0]
    left, right = image[:, : image.shape[1] // 2], image[:, image.shape[1] // 2:]
    # State 1 is framed in the giver's colour, state 2 in the receiver's: a thick frame outweighs a disc.
    assert count(left, giver) > 3 * count(left, receiver) and count(right, receiver) > 3 * count(right, giver)


def test_a_sar_report_has_no_kitchens_and_no_key(tmp_path):
    text = write_html(analyze(SAR, EXAMPLES / "medkit-loop.trace.json"), tmp_path / "m.html").read_text()
    assert 'class="key"' not in text and 'class="state"' not in text
    assert text.count('<td class="why" colspan="6">') == 2


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (Debian: apt-get install -y chromium)")
def test_rows_stay_short_in_a_browser(page, tmp_path):
    """Each interdependence (its row and its reason's) is at most about ten lines tall at 1,100 px, where a
    narrow reason column made rows of 457-634 px (23-32 lines) before."""
    _, path, text = page
    measured = tmp_path / "measure.html"
    measured.write_text(text.replace("</body>", MEASURE))
    browser = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1100,1300",
         "--virtual-time-budget=5000", "--dump-dom", measured.as_uri()],
        capture_output=True, text=True, timeout=120, check=True)
    heights = json.loads(re.search(r'data-rows="([^"]*)"', browser.stdout)[1].replace("&quot;", '"'))
    assert len(heights) == 26 and max(heights) <= 200, heights
