"""The benchmark command must keep working; its figures are not asserted here."""

import pytest

from companion.bench.rules import run_rules_benchmark


def test_rules_benchmark_reports_every_figure(capsys):
    results = run_rules_benchmark(games=20, repeat=1, pin=False)
    assert set(results) == {
        "referee_events_per_s",
        "check_events_per_s",
        "simulate_sensible_games_per_s",
        "simulate_random_games_per_s",
    }
    assert all(rate > 0 for rate in results.values())
    printed = capsys.readouterr().out
    assert "events/s" in printed and "games/s" in printed


def test_stream_benchmark_reads_every_frame_both_ways(tmp_path, capsys, bench_profile):
    from companion.bench.stream import run_stream_benchmark

    results = run_stream_benchmark(streams=1, frames=4, cache=tmp_path, pin=False, profile_of=bench_profile)
    whole, stream = results["results"]["whole", "all"], results["results"]["stream", "all"]
    assert whole.frames == stream.frames == 4 and len(whole.ms) == len(stream.ms) == 4
    assert len(results["still_ms"]) + len(results["changed_ms"]) + len(results["second_look_ms"]) == 4
    printed = capsys.readouterr().out
    assert "read as a stream" in printed and "ms per frame (median)" in printed


def test_seeds_benchmark_prints_each_seed_and_all_of_them_pooled(tmp_path, capsys, bench_profile):
    from companion.bench.seeds import run_seeds_benchmark

    results = run_seeds_benchmark(seeds=((5, 2), (6, 1)), cache=tmp_path, pin=False, profile_of=bench_profile)
    five, six, pooled = results[5], results[6], results["pooled"]
    assert (five.frames, six.frames, pooled.frames) == (2, 1, 3)
    for count in ("required", "right", "wrong", "unknown", "frames_right"):
        assert getattr(pooled, count) == getattr(five, count) + getattr(six, count)
    printed = capsys.readouterr().out
    assert "seed 5 " in printed and "seed 6 " in printed and "all seeds pooled" in printed
    assert "profile as given" in printed and "not pinned" in printed  # says what it measured, not the default


def test_a_seed_is_given_with_or_without_its_number_of_scenes():
    from companion.bench.seeds import DEFAULT_SCENES, seed_and_scenes

    assert seed_and_scenes("13:250") == (13, 250)
    assert seed_and_scenes("11") == (11, DEFAULT_SCENES)
    for wrong in ("13:", "x", "13:0", "13:1.5"):
        with pytest.raises(ValueError, match="SEED"):
            seed_and_scenes(wrong)


def test_designs_benchmark_scores_a_deck_it_cannot_calibrate_as_unread(tmp_path, capsys, monkeypatch):
    from companion.bench import designs

    monkeypatch.setattr(designs, "calibrate_design", lambda name, cache: (None, "no centre numeral found"))
    results = designs.run_designs_benchmark("train", designs=1, per_design=1, cache=tmp_path, pin=False)
    total = results["total"]
    assert results["calibrated"] == 0 and total.frames == 1 and total.required > 0
    assert total.unknown == total.required and total.right == total.wrong == 0
    printed = capsys.readouterr().out
    assert "calibration: 0 of 1 designs; failed per family: plain 1" in printed
    assert "plain:0 failed: no centre numeral found" in printed  # the reason, on a training design only
