"""How fast the rules engine judges (``elfer bench rules``): events checked and whole games
simulated per second, on one core. They print medians; they are not tests."""

from __future__ import annotations

import json
import random
import statistics
import time

from ..record import event_to_dict, parse_event
from ..rules.presets import get_preset
from ..rules.session import Referee
from ..sim.simulate import play_session, simulate
from .cores import pin_to_one_core


def _median_rate(count: int, run, repeat: int) -> tuple[float, list[float]]:
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates), rates


def run_rules_benchmark(games: int = 2000, repeat: int = 5, players: int = 4, pin: bool = True) -> dict:
    """Events checked per second and whole games simulated per second, on one core."""
    where = pin_to_one_core(pin)
    preset = get_preset("classic")
    print(f"elfer bench rules: classic, {players} players, {games} games per run, {repeat} runs, {where}")

    rng = random.Random(2026)
    sessions = [play_session(preset, ["P1", "P2", "P3", "P4"][:players], rng, ("sensible", "random"), games=10)
                for _ in range(max(1, games // 10))]
    records = [s.record for s in sessions]
    events = sum(len(r) for r in records)

    def referee_run():
        for record in records:
            push = Referee().push
            for event in record:
                if not push(event).ok:
                    raise AssertionError("a simulated event was rejected")

    lines = [[json.dumps(event_to_dict(e)) for e in record] for record in records]

    def check_run():
        for record in lines:
            push = Referee().push
            for line in record:
                push(parse_event(json.loads(line)))

    results = {}
    results["referee_events_per_s"], _ = _median_rate(events, referee_run, repeat)
    print(f"referee:   {results['referee_events_per_s']:>10,.0f} events/s (median; {events:,} events of "
          f"{len(records) * 10:,} games, parsed events through Referee.push)")
    results["check_events_per_s"], _ = _median_rate(events, check_run, repeat)
    print(f"check:     {results['check_events_per_s']:>10,.0f} events/s (median; the same events from JSON text: "
          "json.loads + parse_event + Referee.push)")
    for kinds in (("sensible",), ("random",)):
        key = f"simulate_{kinds[0]}_games_per_s"
        results[key], _ = _median_rate(games, lambda: simulate(preset, players, games // 10, 7, kinds, games=10),
                                       repeat)
        print(f"simulate:  {results[key]:>10,.0f} games/s  (median; {players}-player classic games, {kinds[0]} bots, "
              "dealing, bot moves, referee checks and penalties)")
    return results
