"""How fast the synthetic table renders episode frames (``elfer bench synth``)."""

from __future__ import annotations

import statistics
import time

import cv2

from ..rules.presets import get_preset
from ..sim.episode import DEFAULT_RESOLUTION, random_scenery
from ..sim.render import SceneCamera
from ..sim.script import play_script
from ..vision.markers import PLAY_AREA_MM
from .cores import pin_to_one_core


def run_synth_benchmark(frames: int = 300, repeat: int = 5, pin: bool = True, seeds: tuple[int, ...] = (1, 2, 3)) -> dict:
    """Episode frames rendered per second at 1280×720 (table, camera, hands, light, JPEG), one core."""
    pin_to_one_core(pin)
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        print(f"elfer bench synth: {frames} frames per run, {repeat} runs, 3 episodes (classic, 4 players, "
              f"10 fps), {DEFAULT_RESOLUTION[0]}x{DEFAULT_RESOLUTION[1]}, one core")
        throughput, hand_ms, still_ms = [], [], []
        for run in range(repeat):
            seed = seeds[run % len(seeds)]
            script, _ = play_script(get_preset("classic"), ("A", "B", "C", "D"), seed, 10.0, PLAY_AREA_MM,
                                    mistake_rate=0.1)
            camera = SceneCamera(random_scenery(seed))
            camera.picture(script.frames[0].table)  # the first frame builds the table and the camera maps
            states = script.frames[1 : frames + 1]
            start = time.perf_counter()
            for state in states:
                began = time.perf_counter()
                picture, _ = camera.picture(state.table, state.hand)
                camera.encode(picture)
                (hand_ms if state.hand else still_ms).append((time.perf_counter() - began) * 1000)
            throughput.append(len(states) / (time.perf_counter() - start))
        rate = statistics.median(throughput)
        hand, still = _median(hand_ms), _median(still_ms)
        print(f"synth:  {rate:.1f} frames/s (median of runs: {', '.join(f'{r:.1f}' for r in throughput)}); "
              f"per frame, median: {_ms(hand)} with a hand ({len(hand_ms)} frames), "
              f"{_ms(still)} without ({len(still_ms)} frames)")
        return {"frames_per_s": rate, "hand_frame_ms": hand, "still_frame_ms": still}
    finally:
        cv2.setNumThreads(threads)


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f} ms"
