"""Shared fixtures."""

from __future__ import annotations

import pytest
from helpers import SAR

from strips_int import load_domain


@pytest.fixture(scope="session")
def sar():
    """The SAR domain, parsed once."""
    return load_domain(SAR)
