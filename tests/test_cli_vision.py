"""`elfer read` and `elfer calibrate` as a user runs them."""

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.sim.datasets import render_scene


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    _, entry = render_scene(5, style="reference")
    path = tmp_path_factory.mktemp("scene") / "table.jpg"
    path.write_bytes(entry["jpeg"])
    return path, entry["cards"]


def test_read_json_gives_area_and_cards_in_the_contract_format(scene, capsys):
    path, labels = scene
    assert main(["read", str(path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["image"] == str(path) and line["area"] is True
    named = {card["card"] for card in line["cards"] if card["card"]}
    assert named and named <= {label["card"] for label in labels}
    for card in line["cards"]:
        assert 0.0 <= card["confidence"] <= 1.0
        assert len(card["polygon"]) == 4 and all(len(point) == 2 for point in card["polygon"])


def test_read_summary_is_german_by_default_and_show_draws_the_picture(scene, tmp_path, capsys):
    path, _ = scene
    shown = tmp_path / "seen.png"
    assert main(["read", str(path), "--show", str(shown)]) == 0
    assert "Spielfeld erkannt" in capsys.readouterr().out
    picture = cv2.imread(str(shown))
    assert picture is not None and picture.shape == cv2.imread(str(path)).shape
    assert main(["read", str(path), "--lang", "en"]) == 0
    assert "play area found" in capsys.readouterr().out


def test_a_deck_the_profile_does_not_know_gets_a_hint_to_calibrate_it(scene, capsys):
    from companion.vision.profile import _shipped_profile_dir

    _, entry = render_scene(10, style="inverse")  # white numerals on coloured cards: not the shipped deck
    inverse = scene[0].with_name("inverse.jpg")
    inverse.write_bytes(entry["jpeg"])
    assert main(["read", str(inverse)]) == 0
    out = capsys.readouterr().out
    assert "keine Karte lesbar" in out and "elfer calibrate" in out and "--profile" in out
    assert main(["read", str(inverse), "--profile", str(_shipped_profile_dir()), "--lang", "en"]) == 0
    assert "Does the profile fit this deck" in capsys.readouterr().out
    assert main(["read", str(scene[0])]) == 0  # the shipped deck: its cards are read, no hint
    assert "keine Karte lesbar" not in capsys.readouterr().out


def test_labels_drawn_over_the_picture_stay_inside_it_and_apart():
    from companion.report import label_boxes

    card = [(0, 0), (80, 0), (80, 120), (0, 120)]
    beside = [[(x + dx, y + dy) for x, y in card] for dx, dy in [(-20, 2), (100, 0), (180, 0), (260, 0), (1230, 600)]]
    boxes = label_boxes(beside, [(150, 24)] * len(beside), (1280, 720))
    assert len(boxes) == len(beside)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert 0 <= x0 < x1 <= 1280 and 0 <= y0 < y1 <= 720, f"label {i} leaves the picture"
        assert (x1 - x0, y1 - y0) == (150, 24)
        for other in boxes[:i]:
            assert not (x0 < other[2] and other[0] < x1 and y0 < other[3] and other[1] < y1), f"label {i} covers another"
    assert boxes[3][3] <= 0 + 120 + 24 + 8 and boxes[4][1] < 600  # near their cards: above, inside or below


def test_read_reports_an_unreadable_picture_and_a_broken_profile(scene, tmp_path, capfd):
    path, _ = scene
    assert main(["read", str(tmp_path / "missing.jpg")]) == 2
    err = capfd.readouterr().err
    assert "missing.jpg: diese Datei gibt es nicht" in err and "WARN" not in err  # not OpenCV's own warning about it
    not_a_picture = tmp_path / "notes.jpg"
    not_a_picture.write_text("a shopping list")
    assert main(["read", str(not_a_picture), str(path), "--json", "--lang", "en"]) == 2  # the other is still read
    out, err = capfd.readouterr()
    assert "notes.jpg: cannot read it as a picture" in err
    assert json.loads(out)["image"] == str(path)
    broken = tmp_path / "profile"
    broken.mkdir()
    (broken / "profile.json").write_text("{")
    assert main(["read", str(path), "--profile", str(broken)]) == 2
    err = capfd.readouterr().err
    assert "nicht lesbar" in err and "profile.json" in err and f"elfer calibrate --images BILDER --out {broken}" in err
    assert main(["read", str(path), "--profile", str(tmp_path / "no-such-profile"), "--lang", "en"]) == 2
    assert "there is no profile" in capfd.readouterr().err


def test_read_a_frame_of_noise_finds_no_card(tmp_path, capsys):
    noise = np.random.default_rng(1).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    path = tmp_path / "noise.png"
    cv2.imwrite(str(path), noise)
    assert main(["read", str(path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["area"] is False and all(card["card"] is None for card in line["cards"])


def test_calibrate_an_unusable_folder_is_exit_2_and_writes_nothing(tmp_path, capsys):
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    (pictures / "holiday.jpg").write_bytes(b"not a picture")
    out = tmp_path / "profile"
    assert main(["calibrate", "--images", str(pictures), "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith("elfer calibrate:")
    assert not out.exists()
