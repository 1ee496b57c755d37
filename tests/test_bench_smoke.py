"""The benchmark command must keep working; its figures are not asserted here."""

from companion.bench import run_rules_benchmark


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
    from companion.vision.bench_stream import run_stream_benchmark

    results = run_stream_benchmark(streams=1, frames=4, cache=tmp_path, pin=False, profile_of=bench_profile)
    whole, stream = results["results"]["whole", "all"], results["results"]["stream", "all"]
    assert whole.frames == stream.frames == 4 and len(whole.ms) == len(stream.ms) == 4
    assert len(results["still_ms"]) + len(results["changed_ms"]) + len(results["second_look_ms"]) == 4
    printed = capsys.readouterr().out
    assert "read as a stream" in printed and "ms per frame (median)" in printed
