"""Fixtures shared by several test modules."""

from __future__ import annotations

import functools

import pytest


@pytest.fixture(scope="session")
def bench_profile(tmp_path_factory, worker_id):
    """``bench_profile(style)``: the profile ``elfer bench vision`` calibrates for a style
    (its 23 pictures rendered with seed 7). Calibrating takes seconds a style, so each
    style is calibrated once a run, shared by every xdist worker through a folder they all
    see (locked while one of them calibrates), and its pictures are kept in
    ``bench_profile.folder`` laid out as a benchmark cache's ``calibration`` folder."""
    import fcntl

    from companion.bench.evaluate_read import calibrated_profiles
    from companion.vision.profile import Profile

    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":  # each worker's base folder lies in the run's common one
        shared = shared.parent
    folder = shared / "bench-calibration"
    folder.mkdir(exist_ok=True)

    @functools.cache
    def profile(style: str):
        saved = shared / "bench-profiles" / style
        with open(shared / f"bench-profile-{style}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not saved.exists():
                calibrated_profiles([style], seed=7, folder=folder)[style].save(saved)
        return Profile.load(saved)

    profile.folder = folder
    return profile
