"""The play-area marker layout and the printable marker sheet."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.vision.markers import (
    CORNER_IDS,
    MARKER_DICT,
    MARKER_SIZE_MM,
    PLAY_AREA_MM,
    corner_positions_mm,
    detect_markers,
    marker_image,
    quiet_zone_px,
    save_marker_sheet,
)

DPI = 300


def _detect_with_opencv(image: np.ndarray) -> list[int]:
    """Plain OpenCV detection, independent of :func:`detect_markers`."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    _corners, ids, _rejected = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters()).detectMarkers(image)
    return [] if ids is None else sorted(int(i) for i in np.ravel(ids))


def _side_px(corners: np.ndarray) -> float:
    return float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).mean())


def test_layout_constants_are_the_contract():
    assert MARKER_DICT == cv2.aruco.DICT_4X4_50
    assert dict(CORNER_IDS) == {"top_left": 0, "top_right": 1, "bottom_right": 2, "bottom_left": 3}
    width, height = PLAY_AREA_MM
    assert width >= 3 * 59 and height >= 4 * 91  # four colour rows of cards fit
    assert corner_positions_mm() == {0: (0.0, 0.0), 1: (width, 0.0), 2: (width, height), 3: (0.0, height)}


@pytest.mark.parametrize("marker_id", [0, 1, 2, 3, 49])
@pytest.mark.parametrize("size_px", [36, 100, 301])
def test_each_marker_image_is_detected_with_its_id(marker_id, size_px):
    image = marker_image(marker_id, size_px)
    quiet = quiet_zone_px(size_px)
    assert image.dtype == np.uint8 and image.shape == (size_px + 2 * quiet,) * 2
    assert image[0].min() == 255 and image[:, -1].min() == 255  # a white quiet zone all round
    assert _detect_with_opencv(image) == [marker_id]
    corners = detect_markers(image)[marker_id]
    assert abs(_side_px(corners) - size_px) <= 2
    assert np.allclose(corners.mean(axis=0), (image.shape[1] - 1) / 2, atol=1.0)  # centred


def test_detect_markers_takes_colour_images_too():
    grey = cv2.copyMakeBorder(marker_image(2, 80), 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
    assert list(detect_markers(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))) == [2]
    assert list(detect_markers(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGRA))) == [2]
    assert detect_markers(np.full((50, 50), 255, np.uint8)) == {}


@pytest.mark.parametrize("marker_id, size_px", [(-1, 50), (50, 50), (0, 5)])
def test_bad_marker_requests_are_value_errors(marker_id, size_px):
    with pytest.raises(ValueError):
        marker_image(marker_id, size_px)


@pytest.fixture(scope="module")
def sheet_png(tmp_path_factory):
    return save_marker_sheet(tmp_path_factory.mktemp("sheet") / "markers.png")


def test_png_sheet_is_a4_at_300_dpi(sheet_png):
    with Image.open(sheet_png) as sheet:
        assert sheet.size == (round(210 / 25.4 * DPI), round(297 / 25.4 * DPI))
        assert sheet.info["dpi"] == pytest.approx((DPI, DPI), abs=0.01)


def test_png_sheet_has_all_four_markers_at_true_size_in_their_corners(sheet_png):
    page = cv2.imread(str(sheet_png), cv2.IMREAD_GRAYSCALE)
    assert _detect_with_opencv(page) == [0, 1, 2, 3]
    found = detect_markers(page)
    expected_side = MARKER_SIZE_MM / 25.4 * DPI
    for corners in found.values():
        assert _side_px(corners) == pytest.approx(expected_side, rel=0.02)
    centre = {marker_id: corners.mean(axis=0) for marker_id, corners in found.items()}
    top_left, top_right, bottom_right, bottom_left = (centre[CORNER_IDS[name]] for name in CORNER_IDS)
    assert top_left[0] < top_right[0] and bottom_left[0] < bottom_right[0]
    assert top_left[1] < bottom_left[1] and top_right[1] < bottom_right[1]


def test_pdf_sheet_is_a4_at_true_size(tmp_path):
    path = save_marker_sheet(tmp_path / "markers.PDF")
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    width_pt, height_pt = map(float, re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data).groups())
    assert width_pt == pytest.approx(210 / 25.4 * 72, abs=1) and height_pt == pytest.approx(297 / 25.4 * 72, abs=1)


@pytest.mark.parametrize("name", ["markers.jpg", "markers", "markers.png.txt"])
def test_other_suffixes_are_refused(tmp_path, name):
    with pytest.raises(ValueError, match=r"\.png or \.pdf"):
        save_marker_sheet(tmp_path / name)
    assert not (tmp_path / name).exists()
