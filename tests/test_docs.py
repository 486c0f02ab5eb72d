"""The manual's examples run and print what the pages show, so the pages cannot drift from the code.

Every Markdown file under ``docs/`` and the README is read for two kinds of
example (code fences at the start of a line):

- a ```` ```console ```` block: each ``$ COMMAND`` line (continued by a
  trailing ``\\``) is run by bash, and the lines after it, up to the next
  ``$``, are what it prints (standard output and error together);
- a ```` ```python ```` block followed by a line ``<!-- output -->`` and a
  ```` ```text ```` block: the Python is run as a script and the text block
  is what it prints.

Each example runs in a scratch folder that looks like the repository root
(its top-level entries linked in, ``../shared`` beside it), with this
interpreter's ``bin`` first on ``PATH`` (``python``, ``strips-int``), so an
example may write files without touching the checkout. In a shown output a line
``...`` stands for any lines and ``...`` in a line for any text; timings
(``0.41 s``, ``8.8 games/s``) and the scratch folder's path are normalised,
nothing else. An HTML comment on the line before a block tunes it:
``<!-- test: slow -->`` marks it slow (``pytest -m "not slow"`` leaves it
out), ``<!-- test: needs jaxmarl -->`` skips it without that module; an
example that reads ``../shared/data`` skips when that folder is absent.
``DOCS_UPDATE=1 pytest tests/test_docs.py`` writes what each differing example
printed into its page, for review with ``git diff`` (not those that elide with
``...``).
Every other ``python`` block must at least compile (a block that includes a
file, ``--8<-- "FILE"``, compiles that file).

Written by hand (some 150 lines): doctest and the Markdown doc-test plugins run
Python only, and none pairs a shell command with its shown output.
"""

from __future__ import annotations

import difflib
import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import NO_JAXMARL

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PAGES = sorted([*ROOT.joinpath("docs").rglob("*.md"), ROOT / "README.md"])
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
DIRECTIVE = re.compile(r"<!--\s*test:\s*(.*?)\s*-->\s*$")
OUTPUT = "<!-- output -->"
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.M)
TIMING = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?= ?(?:s|ms|µs|games/s)\b)")
TIMEOUT = 600


@dataclass(frozen=True)
class Example:
    """One runnable example: where it is, its kind (console or python), its code and shown output."""

    page: Path
    line: int
    kind: str
    code: str
    shown: str
    directives: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


@dataclass(frozen=True)
class Fence:
    """A fenced block: its language, text, first line (1-based) and the span it covers."""

    lang: str
    text: str
    line: int
    start: int
    end: int


def fences(text: str) -> list[Fence]:
    return [Fence(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1, m.start(), m.end())
            for m in FENCE.finditer(text)]


def directives(text: str, start: int) -> tuple[str, ...]:
    """The ``<!-- test: ... -->`` words on the line just before ``start``."""
    before = text[:start].rstrip("\n").rsplit("\n", 1)[-1]
    found = DIRECTIVE.search(before)
    return tuple(found.group(1).split(",")) if found else ()


def console_steps(text: str) -> list[tuple[str, str]]:
    """A console block's ``$`` commands, each with the output shown after it."""
    steps: list[tuple[str, list[str]]] = []
    lines = iter(text.splitlines())
    for line in lines:
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                command = command[:-1] + "\n" + next(lines)
            steps.append((command, []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise AssertionError(f"a console block must start with a '$ ' command line: {line!r}")
    return [(command, "\n".join(shown)) for command, shown in steps]


def examples(page: Path) -> list[Example]:
    text = page.read_text(encoding="utf-8")
    found: list[Example] = []
    blocks = fences(text)
    for block, after in zip(blocks, [*blocks[1:], None]):
        tuned = tuple(d.strip() for d in directives(text, block.start))
        if block.lang == "console":
            found.append(Example(page, block.line, "console", block.text, "", tuned))
        elif block.lang == "python" and text[block.end:].lstrip().startswith(OUTPUT):
            assert after is not None and after.lang == "text", f"{page}:{block.line}: {OUTPUT} needs a text block"
            found.append(Example(page, block.line, "python", block.text, after.text, tuned))
    return found


def python_blocks() -> list[tuple[str, str]]:
    """Every ``python`` block, a snippet line (``--8<-- "FILE"``, the page includes a file) as that file's text."""
    return [(f"{page.relative_to(ROOT)}:{block.line}", SNIPPET.sub(lambda m: (ROOT / m.group(1)).read_text(), block.text))
            for page in PAGES for block in fences(page.read_text(encoding="utf-8")) if block.lang == "python"]


def normalised(text: str, scratch: Path) -> str:
    text = text.replace(str(scratch), ".").replace(str(ROOT), ".")
    return "\n".join(TIMING.sub("N", line.rstrip()) for line in text.strip("\n").splitlines())


def matches(shown: str, printed: str) -> bool:
    """``printed`` is ``shown``, where a line ``...`` is any lines and ``...`` in a line any text."""
    pattern = []
    for line in shown.splitlines():
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(re.escape(line).replace(re.escape("..."), r"[^\n]*") + r"\n")
    return re.fullmatch("".join(pattern), printed + "\n" if printed else "") is not None


def scratch_root(tmp: Path) -> Path:
    """A folder that looks like the repository root: its entries linked in, ``.venv`` the running one's,
    ``../shared`` beside it."""
    root = tmp / "repo"
    root.mkdir()
    for entry in ROOT.iterdir():
        if not entry.name.startswith("."):
            (root / entry.name).symlink_to(entry)
    if sys.prefix != sys.base_prefix:  # this interpreter's virtual environment, where the README's commands are
        (root / ".venv").symlink_to(sys.prefix)
    if SHARED.exists():
        (tmp / "shared").symlink_to(SHARED)
    return root


def run(command: list[str], cwd: Path) -> str:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "MPLBACKEND": "Agg", "PYTHONUNBUFFERED": "1", "COLUMNS": "80"}
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=TIMEOUT)
    return done.stdout


def params() -> list:
    found = []
    for page in PAGES:
        for example in examples(page):
            marks = [pytest.mark.slow] if "slow" in example.directives else []
            marks += [pytest.mark.jaxmarl] if "needs jaxmarl" in example.directives else []
            found.append(pytest.param(example, id=example.name, marks=marks))
    return found


@pytest.mark.parametrize("example", params())
def test_example_prints_what_the_page_shows(example: Example, tmp_path: Path) -> None:
    if "../shared/data" in example.code and not (SHARED / "data").is_dir():
        pytest.skip("needs ../shared/data")
    for directive in example.directives:
        if directive.startswith("needs ") and importlib.util.find_spec(directive.split()[1]) is None:
            pytest.skip(NO_JAXMARL if directive == "needs jaxmarl" else f"needs {directive.split()[1]}")
    root = scratch_root(tmp_path)
    if example.kind == "python":
        steps = [([sys.executable, "-c", example.code], example.shown, "the Python block")]
    else:
        steps = [(["bash", "-c", command], shown, f"$ {command}") for command, shown in console_steps(example.code)]
    printed = [run(command, root).replace(str(root), ".") for command, _, _ in steps]
    for (command, shown, what), output in zip(steps, printed):
        expected, got = normalised(shown, root), normalised(output, root)
        if not matches(expected, got):
            if os.environ.get("DOCS_UPDATE"):
                update(example, [shown for _, shown, _ in steps], printed)
            diff = "\n".join(difflib.unified_diff(expected.splitlines(), got.splitlines(), "shown", "printed",
                                                  lineterm=""))
            pytest.fail(f"{example.name}: {what} printed something else than the page shows:\n{diff}")


def update(example: Example, shown: list[str], printed: list[str]) -> None:
    """``DOCS_UPDATE=1``: write what the example printed into its page (review it with ``git diff``); an
    output with ``...`` is left for a person to cut."""
    if any("..." in text for text in shown):
        pytest.fail(f"{example.name}: its shown output elides with '...': update it by hand")
    text = example.page.read_text(encoding="utf-8")
    if example.kind == "python":
        old, new = f"```text\n{example.shown}```", f"```text\n{printed[0].rstrip()}\n```"
    else:
        commands = [command for command, _ in console_steps(example.code)]
        body = "".join(f"$ {command.replace(chr(10), chr(92) + chr(10))}\n" + (output.rstrip() + "\n").lstrip("\n")
                       for command, output in zip(commands, printed))
        old, new = f"```console\n{example.code}```", f"```console\n{body}```"
    if text.count(old) != 1:
        pytest.fail(f"{example.name}: cannot find the block to update in the page")
    example.page.write_text(text.replace(old, new), encoding="utf-8")
    pytest.skip(f"{example.name}: rewrote the shown output; review it with git diff")


def test_the_pages_have_examples_of_each_kind() -> None:
    """The convention is in use (a renamed fence or marker would silently run nothing)."""
    kinds = {example.kind for page in PAGES for example in examples(page)}
    assert kinds == {"console", "python"}


@pytest.mark.parametrize("name, code", python_blocks(), ids=[name for name, _ in python_blocks()])
def test_python_block_compiles(name: str, code: str) -> None:
    compile(code, name, "exec")


def test_ellipsis_and_timings() -> None:
    """The two allowances of the comparison, and nothing more."""
    assert matches("a\n...\nd", "a\nb\nc\nd") and matches("a\n...\nd", "a\nd")
    assert matches("x ... z", "x yyy z") and not matches("x ... z", "x y\nz")
    assert not matches("a\nb", "a\nc") and not matches("a", "a\nb")
    assert normalised("2.3 s (8.8 games/s), 0.41 s, 12 ms, 7 steps, 3 soups", Path("/x")) == \
        "N s (N games/s), N s, N ms, 7 steps, 3 soups"
