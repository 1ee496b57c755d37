"""Speed of the synthetic camera (``python -m companion.bench.camera``): median milliseconds
per 1280×720 frame for the view (remap), the lighting and the JPEG encoding."""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import cv2
import numpy as np

from ..sim.camera import Camera, TableRaster, _view_plan
from ..sim.lighting import Lighting, LightingRenderer, encode_jpeg
from ..sim.surface import make_surface
from .cores import pin_to_one_core


def benchmark_camera(frames: int = 200, pin: bool = True, seed: int = 2026) -> dict:
    """Render ``frames`` frames of a wood table seen by a 20°-tilted camera with
    distortion, under a lighting with shadows, glare, noise, defocus and motion blur
    (the costly case), on one core (process pinned, OpenCV single-threaded). Prints
    and returns the medians in ms: ``view_ms``, ``lighting_ms``, ``jpeg_ms``, ``total_ms``."""
    where = pin_to_one_core(pin)
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        rng = np.random.default_rng(seed)
        camera = Camera.framing((900.0, 600.0), rng, tilt_deg=20.0)
        raster, size = TableRaster.covering(camera.visible_rect_mm(), 2.0)
        table = make_surface("wood", size, raster.px_per_mm, rng)
        lighting = Lighting.random(rng, defocus_sigma_px=0.8, motion_blur_px=3.0, noise_sigma=3.0,
                                   glares=((0.3, 0.4, 0.06, 0.03, 20.0, 0.7),))
        renderer = LightingRenderer(lighting, camera.resolution, seed)
        camera.view(table, raster)  # builds and memoises the maps
        times = {"view_ms": [], "lighting_ms": [], "jpeg_ms": [], "total_ms": []}
        for _ in range(frames):
            start = time.perf_counter()
            frame = camera.view(table, raster)
            viewed = time.perf_counter()
            frame = renderer.apply(frame, rng)
            lit = time.perf_counter()
            encode_jpeg(frame, lighting.jpeg_quality)
            done = time.perf_counter()
            for key, seconds in (("view_ms", viewed - start), ("lighting_ms", lit - viewed),
                                 ("jpeg_ms", done - lit), ("total_ms", done - start)):
                times[key].append(seconds * 1000)
    finally:
        cv2.setNumThreads(threads)
    results = {key: statistics.median(values) for key, values in times.items()}
    print(f"python -m companion.bench.camera: {frames} frames of {camera.resolution[0]}×{camera.resolution[1]}, "
          f"table image {size[0]}×{size[1]} px at {raster.px_per_mm:g} px/mm (shrunk ×{_view_plan(camera, raster)[0]} "
          f"before the remap), OpenCV single-threaded, {where}")
    print(f"view:      {results['view_ms']:6.2f} ms/frame (median; remap through the tilted, distorted camera)")
    print(f"lighting:  {results['lighting_ms']:6.2f} ms/frame (median; defocus, motion blur, light, glare, noise)")
    print(f"jpeg:      {results['jpeg_ms']:6.2f} ms/frame (median; encode at quality {lighting.jpeg_quality})")
    print(f"total:     {results['total_ms']:6.2f} ms/frame (median) = {1000 / results['total_ms']:.0f} frames/s")
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Median milliseconds per 1280x720 frame of the synthetic camera's "
                                     "view (remap), lighting and JPEG encoding, on one core.")
    parser.add_argument("--frames", type=int, default=200, help="frames timed (default 200)")
    parser.add_argument("--seed", type=int, default=2026, help="the scenery's seed (default 2026)")
    args = parser.parse_args(argv)
    benchmark_camera(frames=args.frames, seed=args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
