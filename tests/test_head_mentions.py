"""``Head.mentions``, the recognizers' fast substring test, answers exactly as ``needle in data`` does, and the
recognizers that use it still claim their own files and no user-study game."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import SHARED_DATA
from strips_int.grounders import Head, registered

#: A small alphabet, so that needles are often present, partly present or absent.
BYTES = st.binary(max_size=200).map(lambda b: bytes(c % 7 + 32 for c in b))


@settings(max_examples=400, deadline=None)
@given(data=BYTES, needle=BYTES.filter(bool))
def test_mentions_is_the_substring_test(data, needle):
    head = Head(Path("x.json"), len(data), data)
    assert head.mentions(needle) == (needle in data)


@settings(max_examples=200, deadline=None)
@given(prefix=st.binary(max_size=100), suffix=st.binary(max_size=100), needle=st.binary(min_size=1, max_size=20))
def test_a_needle_anywhere_in_any_bytes_is_found(prefix, suffix, needle):
    data = prefix + needle + suffix
    assert Head(Path("x.dump"), len(data), data).mentions(needle)


@pytest.mark.skipif(not (SHARED_DATA / "user-study").is_dir(), reason="needs ../shared/data/user-study")
def test_only_overcooked_claims_the_user_study_games():
    grounders = registered()
    for path in sorted((SHARED_DATA / "user-study").glob("*/*.json"))[:60]:
        head = Head.of(path)
        claims = [name for name, grounder in grounders.items() if grounder.recognizes(head)]
        assert claims == ["overcooked"], (path, claims)
