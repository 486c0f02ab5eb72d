"""Paths the tests share: the repository's own files and the third-party games beside it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAR = ROOT / "domains" / "sar.pddl"
EXAMPLES = ROOT / "examples" / "sar"
#: The third-party games, read in place; tests that need them skip without them.
SHARED_DATA = ROOT.parent / "shared" / "data"
