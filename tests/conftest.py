"""Fixtures shared by several test modules."""

from __future__ import annotations

import functools

import pytest


@pytest.fixture(scope="session")
def bench_profile(tmp_path_factory):
    """``bench_profile(style)``: the profile ``elfer bench vision`` calibrates for a style
    (its 23 pictures rendered with seed 7). Rendering them takes seconds a style, so each
    style's pictures are rendered once a session, into ``bench_profile.folder`` laid out as
    a benchmark cache's ``calibration`` folder."""
    from companion.bench.evaluate_read import calibrated_profiles

    folder = tmp_path_factory.mktemp("bench-calibration")

    @functools.cache
    def profile(style: str):
        return calibrated_profiles([style], seed=7, folder=folder)[style]

    profile.folder = folder
    return profile
