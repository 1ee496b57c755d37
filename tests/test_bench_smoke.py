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
