"""The synthetic camera: projection and rendering agree, framing, lighting effects, JPEG."""

import math

import cv2
import numpy as np
import pytest

from companion.sim.camera import Camera, TableRaster
from companion.sim.lighting import (Glare, Lighting, LightingRenderer, Shadow, apply_lighting, encode_jpeg,
                                    jpeg_roundtrip, white_balance_gains)

AREA = (900.0, 600.0)
TILTED = Camera.framing(AREA, tilt_deg=30.0, tilt_direction_deg=300.0, yaw_deg=4.0, k1=0.015, k2=0.004)
BARREL = Camera.framing(AREA, tilt_deg=22.0, tilt_direction_deg=80.0, yaw_deg=-3.0, k1=-0.015, k2=-0.004)
TOP_DOWN = Camera.framing(AREA)


def _dot_table(camera, raster, points_mm, sigma_mm=1.2):
    """A black table image (covering the camera's view) with a small Gaussian dot at
    each point, drawn at its exact sub-pixel position."""
    _, size = TableRaster.covering(camera.visible_rect_mm(), raster.px_per_mm)
    table = np.zeros((size[1], size[0]), np.float32)
    sigma = sigma_mm * raster.px_per_mm
    reach = int(4 * sigma) + 1
    for cx, cy in raster.to_px(points_mm):
        u0, v0 = int(round(cx)) - reach, int(round(cy)) - reach
        us, vs = np.arange(u0, u0 + 2 * reach + 1), np.arange(v0, v0 + 2 * reach + 1)
        blob = np.exp(-((us[None, :] - cx) ** 2 + (vs[:, None] - cy) ** 2) / (2 * sigma * sigma))
        table[v0:v0 + 2 * reach + 1, u0:u0 + 2 * reach + 1] += 255 * blob.astype(np.float32)
    return cv2.merge([np.clip(table, 0, 255).astype(np.uint8)] * 3)


def _centroid(frame, near, radius=7):
    x0, y0 = int(round(near[0])) - radius, int(round(near[1])) - radius
    patch = frame[y0:y0 + 2 * radius + 1, x0:x0 + 2 * radius + 1, 1].astype(np.float64)
    patch = np.maximum(patch - 8, 0)
    vs, us = np.mgrid[y0:y0 + 2 * radius + 1, x0:x0 + 2 * radius + 1]
    return np.array([(us * patch).sum(), (vs * patch).sum()]) / patch.sum()


def _dots_where_projected(camera, px_per_mm):
    """Dots at a grid of frame positions reaching 12 px from every edge (where the
    distortion is strongest), plus the play area's corners."""
    w, h = camera.resolution
    grid = np.array([(x, y) for x in np.linspace(12, w - 13, 9) for y in np.linspace(12, h - 13, 6)])
    points = np.concatenate([camera.unproject(grid), [[0, 0], [AREA[0], 0], [0, AREA[1]], list(AREA)]])
    raster, _ = TableRaster.covering(camera.visible_rect_mm(), px_per_mm)
    frame = camera.view(_dot_table(camera, raster, points), raster)
    expected = camera.project(points)
    found = np.array([_centroid(frame, p) for p in expected])
    return expected, found


@pytest.mark.parametrize("camera", [TILTED, BARREL, TOP_DOWN], ids=["tilt30-pincushion", "tilt22-barrel", "top-down"])
def test_a_dot_on_the_table_appears_where_project_says(camera):
    expected, found = _dots_where_projected(camera, 2.0)
    assert np.abs(found - expected).max() < 0.5


def test_projection_agrees_with_the_view_through_the_antialiasing_shrink():
    # 6 px/mm is several times finer than the camera, so view shrinks the table first.
    expected, found = _dots_where_projected(TILTED, 6.0)
    assert np.abs(found - expected).max() < 0.5


def test_project_and_unproject_are_inverse():
    rng = np.random.default_rng(3)
    for camera in (TILTED, BARREL, TOP_DOWN):
        points = rng.uniform([0, 0], AREA, (200, 2))
        assert np.abs(camera.unproject(camera.project(points)) - points).max() < 1e-6
        assert camera.project(points[0]).shape == (2,)


def test_top_down_camera_sees_the_area_as_a_centred_axis_aligned_rectangle():
    top_left, top_right, bottom_right, bottom_left = TOP_DOWN.project(
        np.array([[0, 0], [AREA[0], 0], list(AREA), [0, AREA[1]]]))
    assert top_left[1] == pytest.approx(top_right[1], abs=1e-9)
    assert bottom_left[1] == pytest.approx(bottom_right[1], abs=1e-9)
    assert top_left[0] == pytest.approx(bottom_left[0], abs=1e-9)
    assert top_right[0] == pytest.approx(bottom_right[0], abs=1e-9)
    width, height = bottom_right - top_left
    assert width / height == pytest.approx(AREA[0] / AREA[1])
    assert (top_left + bottom_right) / 2 == pytest.approx(TOP_DOWN.principal_point)
    # 10 % margin by default: the area is relatively taller than the frame, so its height just fits.
    assert top_left[1] == pytest.approx(0.1 * 720 - 0.5, abs=0.2)


def test_framing_keeps_the_area_inside_the_frame_for_random_cameras():
    rng = np.random.default_rng(2026)
    for _ in range(200):
        camera = Camera.framing(AREA, rng)
        w, h = camera.resolution
        assert 0 <= camera.tilt_deg <= 30 and abs(camera.yaw_deg) <= 5
        corners = camera.project(np.array([[0, 0], [AREA[0], 0], [0, AREA[1]], list(AREA)]))
        assert np.all(corners[:, 0] > 0.045 * w) and np.all(corners[:, 0] < 0.955 * w)
        assert np.all(corners[:, 1] > 0.045 * h) and np.all(corners[:, 1] < 0.955 * h)
        x0, y0, x1, y1 = camera.visible_rect_mm()  # never sees past the horizon
        assert x0 < 0 < AREA[0] < x1 and y0 < 0 < AREA[1] < y1


def test_distortion_moves_the_frame_corners_only_a_few_pixels():
    rng = np.random.default_rng(7)
    for _ in range(50):
        camera = Camera.framing(AREA, rng)
        corner_point = camera.unproject([[0.0, 0.0]])
        pinhole = cv2.perspectiveTransform(corner_point[None], camera.homography())[0, 0]
        assert np.linalg.norm(pinhole - [0, 0]) < 6


def test_framing_without_rng_is_top_down_and_with_the_same_seed_the_same():
    assert (TOP_DOWN.tilt_deg, TOP_DOWN.yaw_deg, TOP_DOWN.k1, TOP_DOWN.k2) == (0, 0, 0, 0)
    assert Camera.framing(AREA, np.random.default_rng(9)) == Camera.framing(AREA, np.random.default_rng(9))
    assert Camera.framing(AREA, np.random.default_rng(9)) != Camera.framing(AREA, np.random.default_rng(10))


def test_visible_rect_covers_the_whole_frame():
    for camera in (TILTED, BARREL, TOP_DOWN):
        x0, y0, x1, y1 = camera.visible_rect_mm()
        w, h = camera.resolution
        seen = camera.unproject(np.array([(x, y) for x in np.linspace(-0.5, w - 0.5, 20)
                                          for y in np.linspace(-0.5, h - 0.5, 20)]))
        assert np.all(seen[:, 0] >= x0 - 1e-6) and np.all(seen[:, 0] <= x1 + 1e-6)
        assert np.all(seen[:, 1] >= y0 - 1e-6) and np.all(seen[:, 1] <= y1 + 1e-6)
        raster, size = TableRaster.covering((x0, y0, x1, y1), 2.0)
        map_x, map_y = camera.maps(raster)
        assert map_x.dtype == np.float32 and map_x.shape == (h, w)
        assert map_x.min() >= -0.5 and map_x.max() <= size[0] - 0.5
        assert map_y.min() >= -0.5 and map_y.max() <= size[1] - 0.5


def test_table_raster_half_pixel_convention():
    raster = TableRaster((-100.0, 50.0), 2.0)
    assert raster.to_mm([0, 0]) == pytest.approx([-99.75, 50.25])
    assert raster.to_px([-100.0, 50.0]) == pytest.approx([-0.5, -0.5])
    np.testing.assert_allclose(raster.to_px(raster.to_mm([[3.0, 7.0]])), [[3.0, 7.0]])


# --- lighting --------------------------------------------------------------------------

SIZE = (320, 240)


def _flat(bgr, size=SIZE):
    return np.full((size[1], size[0], 3), bgr, np.uint8)


def _lit(frame, lighting, seed=0):
    return LightingRenderer(lighting, (frame.shape[1], frame.shape[0])).apply(frame, np.random.default_rng(seed))


def test_neutral_lighting_leaves_the_frame_alone():
    frame = np.random.default_rng(1).integers(0, 256, (SIZE[1], SIZE[0], 3), dtype=np.uint8)
    assert np.array_equal(_lit(frame, Lighting.neutral()), frame)


def test_warm_light_turns_white_orange_and_yellow_towards_orange():
    warm = Lighting(colour_temperature_k=2700, white_balance=0.5)
    white = _lit(_flat((200, 200, 200)), warm).reshape(-1, 3).mean(axis=0)
    assert white[2] / white[0] > 1.4  # R/B of a white patch
    daylight = _lit(_flat((200, 200, 200)), Lighting(colour_temperature_k=6500, white_balance=0.5))
    assert daylight.reshape(-1, 3).mean(axis=0) == pytest.approx([200, 200, 200], abs=2)
    yellow = _flat((40, 200, 230))
    hue_before = cv2.cvtColor(yellow, cv2.COLOR_BGR2HSV)[..., 0].mean()
    hue_after = cv2.cvtColor(_lit(yellow, warm), cv2.COLOR_BGR2HSV)[..., 0].mean()
    assert hue_after < hue_before - 1.5  # OpenCV hue (0–180): orange is below yellow
    full, none = white_balance_gains(2700, 1.0), white_balance_gains(2700, 0.0)
    assert full == pytest.approx([1, 1, 1], abs=1e-6) and none[2] / none[0] > white[2] / white[0]


def test_a_glare_spot_is_brighter_and_washes_out_colour():
    red = _flat((40, 40, 180))
    lit = _lit(red, Lighting(glares=(Glare(0.5, 0.5, 0.1, 0.08, 0, 0.8),)))
    hsv_before, hsv_after = cv2.cvtColor(red, cv2.COLOR_BGR2HSV), cv2.cvtColor(lit, cv2.COLOR_BGR2HSV)
    centre = (slice(110, 130), slice(150, 170))
    assert hsv_after[centre][..., 2].mean() > hsv_before[centre][..., 2].mean() + 40
    assert hsv_after[centre][..., 1].mean() < hsv_before[centre][..., 1].mean() - 80
    assert np.array_equal(lit[:20, :20], red[:20, :20])  # far from the spot: untouched


def test_shadow_gradient_and_vignette_darken_where_they_say():
    grey = _flat((150, 150, 150))
    shadowed = _lit(grey, Lighting(shadows=(Shadow(0.25, 0.5, 0.3, 0.2, 90, 0.5),)))
    assert shadowed[100:140, 70:90].mean() < 120 and shadowed[100:140, 250:270].mean() > 145
    ramp = _lit(grey, Lighting(gradient=0.3, gradient_angle_deg=0))  # brighter to the right
    assert ramp[:, -20:].mean() > ramp[:, :20].mean() + 50
    vignetted = _lit(grey, Lighting(vignette=0.3))
    assert vignetted[:10, :10].mean() < vignetted[110:130, 150:170].mean() - 30


def test_noise_has_the_set_spread_and_grows_when_darker():
    grey = _flat((128, 128, 128))
    noisy = _lit(grey, Lighting(noise_sigma=4.0)).astype(np.float64)
    assert noisy.std(axis=(0, 1)) == pytest.approx([4, 4, 4], rel=0.15)
    dim = _lit(grey, Lighting(noise_sigma=4.0, exposure=0.5)).astype(np.float64)
    assert dim.mean() == pytest.approx(64, abs=1)
    assert dim.std() == pytest.approx(8, rel=0.15)


def _high_frequency_energy(frame):
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def test_defocus_and_motion_blur_lower_the_high_frequency_energy():
    texture = np.random.default_rng(4).integers(0, 256, (SIZE[1], SIZE[0], 3), dtype=np.uint8)
    sharp = _high_frequency_energy(texture)
    assert _high_frequency_energy(_lit(texture, Lighting(defocus_sigma_px=1.5))) < 0.2 * sharp
    assert _high_frequency_energy(_lit(texture, Lighting(motion_blur_px=6, motion_angle_deg=30))) < 0.5 * sharp


def test_lighting_is_deterministic_per_rng_and_noise_changes_per_frame():
    frame = _flat((90, 120, 160))
    lighting = Lighting.random(np.random.default_rng(5), noise_sigma=3.0)
    assert lighting == Lighting.random(np.random.default_rng(5), noise_sigma=3.0)
    assert np.array_equal(apply_lighting(frame, lighting, np.random.default_rng(1)),
                          apply_lighting(frame, lighting, np.random.default_rng(1)))
    renderer, rng = LightingRenderer(lighting, SIZE), np.random.default_rng(2)
    assert not np.array_equal(renderer.apply(frame, rng), renderer.apply(frame, rng))


def test_random_lightings_stay_in_their_documented_ranges():
    rng = np.random.default_rng(6)
    for _ in range(100):
        lighting = Lighting.random(rng)
        assert 0.65 <= lighting.exposure <= 1.2 and 2700 <= lighting.colour_temperature_k <= 6500
        assert len(lighting.shadows) <= 3 and len(lighting.glares) <= 2 and 60 <= lighting.jpeg_quality <= 95
        hash(lighting)  # hashable, so renderers can be memoised


def test_camera_and_lighting_describe_themselves_as_json_and_rebuild_from_it():
    import json

    camera = Camera.framing(AREA, np.random.default_rng(4))
    lighting = Lighting.random(np.random.default_rng(4), glares=((0.5, 0.5, 0.05, 0.03, 10, 0.6),),
                               shadows=((0.2, 0.3, 0.5, 0.1, 40, 0.3),))
    assert Camera(**json.loads(json.dumps(camera.describe()))) == camera
    assert Lighting(**json.loads(json.dumps(lighting.describe()))) == lighting


def test_renderer_refuses_a_frame_of_another_size():
    with pytest.raises(ValueError):
        LightingRenderer(Lighting.neutral(), SIZE).apply(_flat(0, (100, 100)), np.random.default_rng(0))


def test_view_renders_a_frame_of_the_camera_resolution():
    raster, size = TableRaster.covering(TILTED.visible_rect_mm(), 2.0)
    table = np.full((size[1], size[0], 3), 200, np.uint8)
    frame = TILTED.view(table, raster)
    assert frame.shape == (720, 1280, 3) and frame.dtype == np.uint8
    assert np.all(frame[5:-5, 5:-5] == 200)  # the whole view lies on the table image


def test_jpeg_roundtrip_and_encoding():
    frame = cv2.GaussianBlur(np.random.default_rng(8).integers(0, 256, (240, 320, 3), dtype=np.uint8), (0, 0), 2)
    data = encode_jpeg(frame, 90)
    assert isinstance(data, bytes) and data[:2] == b"\xff\xd8"
    assert len(encode_jpeg(frame, 40)) < len(data)
    decoded = jpeg_roundtrip(frame, 90)
    assert decoded.shape == frame.shape and decoded.dtype == np.uint8
    assert np.abs(decoded.astype(int) - frame.astype(int)).mean() < 3


def test_camera_benchmark_reports_every_figure(capsys):
    from companion.bench.camera import benchmark_camera

    results = benchmark_camera(frames=2, pin=False)
    assert {"view_ms", "lighting_ms", "jpeg_ms", "total_ms"} <= set(results)
    assert all(value > 0 for value in results.values())
    assert "ms/frame" in capsys.readouterr().out


def test_tilt_direction_puts_the_far_side_smaller():
    camera = Camera.framing(AREA, tilt_deg=25.0, tilt_direction_deg=270.0)  # looking up the table
    top = camera.project(np.array([[0.0, 0.0], [AREA[0], 0.0]]))
    bottom = camera.project(np.array([[0.0, AREA[1]], list(AREA)]))
    assert np.ptp(top[:, 0]) < np.ptp(bottom[:, 0])
    assert math.isclose(top[0, 1], top[1, 1], abs_tol=1e-6)


def test_positive_yaw_turns_the_table_counter_clockwise_in_the_picture():
    camera = Camera.framing(AREA, yaw_deg=5.0)
    start, end = camera.project(np.array([[300.0, 300.0], [600.0, 300.0]]))
    assert end[1] < start[1]  # the table's x axis climbs to the right
    assert math.degrees(math.atan2(start[1] - end[1], end[0] - start[0])) == pytest.approx(5.0)
