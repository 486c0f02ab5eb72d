"""The per-game HTML report: self-contained, one row per interdependence, and clean in a real headless browser."""

from __future__ import annotations

import base64
import io
import shutil
import subprocess
from html.parser import HTMLParser

import matplotlib.image
import pytest
from helpers import EXAMPLES, ROOT, SAR, SHARED_DATA
from matplotlib.figure import Figure
from matplotlib.patches import Circle

from strips_int import analyze, load_domain
from strips_int.cli.check import main as check_main
from strips_int.grounders import read_input
from strips_int.grounders.overcooked.draw import draw_kitchen, tiles
from strips_int.visualize.html import states

GAME = SHARED_DATA / "user-study" / "hsp" / "5_11_2025_0_16_29_human=1.json"
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)


class Page(HTMLParser):
    """The rows (by class), the images' sources and the links of an HTML page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.rows: list[str] = []
        self.images: list[tuple[str, str]] = []
        self.links: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and attrs.get("class"):
            self.rows.append(attrs["class"])
        elif tag == "img":
            self.images.append((attrs.get("class") or "", attrs["src"]))
        elif tag in ("a", "link", "script") and (attrs.get("href") or attrs.get("src")):
            self.links.append(attrs.get("href") or attrs.get("src"))


def decode(uri: str):
    """A ``data:`` image as pixels (PNG) or as text (SVG): proves it is whole."""
    head, _, payload = uri.partition(",")
    raw = base64.b64decode(payload)
    if head == "data:image/png;base64":
        return matplotlib.image.imread(io.BytesIO(raw), format="png")
    assert head == "data:image/svg+xml;base64"
    return raw.decode("utf-8")


def test_html_report_of_a_sar_example(tmp_path, capsys):
    out = tmp_path / "kit-pass.html"
    assert check_main([str(SAR), str(EXAMPLES / "kit-pass.trace.json"), "--html", str(out)]) == 0
    page = Page(out.read_text())
    assert page.rows == ["interdependence"]  # one interdependence, one row
    assert [cls for cls, _ in page.images] == ["timeline"]  # SAR: no kitchen drawings
    assert "</svg>" in decode(page.images[0][1])
    assert page.links == ["data:,"]  # the empty favicon: nothing to fetch
    assert "firefighter1" in out.read_text() and "(give firefighter1 nurse1 kit1 hall)" in out.read_text()


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_html_report_of_a_real_game_draws_the_kitchens(tmp_path, capsys):
    out = tmp_path / "game.html"
    assert check_main([str(ROOT / "domains" / "overcooked.pddl"), str(GAME), "--html", str(out)]) == 0
    page = Page(out.read_text())
    assert page.rows == ["interdependence"] * 26
    kitchens = [decode(src) for cls, src in page.images if cls == "state"]
    assert len(kitchens) == 26 and all(image.shape[0] > 100 and image.shape[1] > 300 for image in kitchens)
    assert all(src.startswith("data:") for _, src in page.images)


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (Debian: apt-get install -y chromium)")
@pytest.mark.parametrize("which", ["sar", "overcooked"])
def test_html_report_in_headless_chromium(which, tmp_path, capsys):
    if which == "overcooked" and not GAME.is_file():
        pytest.skip("needs ../shared/data")
    domain, game, rows = ((SAR, EXAMPLES / "medkit-loop.trace.json", 2) if which == "sar"
                          else (ROOT / "domains" / "overcooked.pddl", GAME, 26))
    out = tmp_path / "report.html"
    assert check_main([str(domain), str(game), "--html", str(out)]) == 0
    browser = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
         "--disable-component-update", "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
         "--enable-logging=stderr", "--v=0", "--dump-dom", out.as_uri()],
        capture_output=True, text=True, timeout=120, check=True)
    console = [line for line in browser.stderr.splitlines() if ":CONSOLE" in line]
    assert console == []
    dom = Page(browser.stdout)
    assert dom.rows == ["interdependence"] * rows
    assert len(dom.images) == 1 + (1 + rows if which == "overcooked" else 0)  # timeline, kitchens' key, kitchens


@pytest.mark.skipif(not GAME.is_file(), reason="needs ../shared/data")
def test_kitchen_drawn_from_the_lifted_state():
    domain = load_domain(ROOT / "domains" / "overcooked.pddl")
    [trace] = read_input(GAME, domain)
    report = analyze(domain, trace)
    first = report.to_dict()["interdependencies"][0]  # player1 puts onion1 on counter2_1, player0 takes it
    before = list(states(trace.problem.init, [s.action for s in report.steps]))
    state = before[first["receiver"]["index"]]
    assert ("on", "onion1", "counter2_1") in state
    figure = Figure()
    ax = figure.subplots()
    draw_kitchen(ax, trace.problem.objects, state, list(report.agents), first["objects"])
    circles = {tuple(p.center): p for p in ax.patches if isinstance(p, Circle)}
    assert circles[2, 1].get_edgecolor()[:3] == (1.0, 0.0, 0.0)  # onion1 on counter2_1, ringed
    at = {fact[1]: fact[2] for fact in state if fact[0] == "at"}
    assert at == {"player0": "c3_1", "player1": "c1_1"} and (3, 1) in circles and (1, 1) in circles
    assert len(tiles(trace.problem.objects)) == 25  # forced_coordination is 5 x 5
    assert ax.get_xlim() == (-0.5, 4.5)
