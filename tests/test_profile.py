"""Calibration profiles: the shipped one loads and reads, profiles round-trip through their
folder, and every kind of broken folder is a clear ProfileError naming file and problem."""

from __future__ import annotations

import dataclasses

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import DECK, Colour
from companion.bench.evaluate_read import NEUTRAL_LIGHT, table
from companion.vision.profile import (FACE_PRINT_FILE, FORMAT_VERSION, Layout, Profile, ProfileError,
                                      _shipped_profile_dir, default_profile, template_name)
from companion.vision.card_reader import CardReader


@pytest.fixture(scope="module")
def shipped():
    return default_profile()


@pytest.fixture
def folder(tmp_path, shipped):
    """A writable copy of the shipped profile."""
    shipped.save(tmp_path / "deck")
    return tmp_path / "deck"


def _edit_json(folder, change):
    path = folder / "profile.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


# --------------------------------------------------------------------- the shipped profile
def test_the_shipped_profile_is_the_reference_deck(shipped):
    assert (_shipped_profile_dir() / "profile.json").is_file()
    assert shipped.deck == "reference" and shipped.format_version == FORMAT_VERSION
    assert shipped.numbers == tuple(range(1, 21)) and shipped.colours == tuple(Colour)
    assert not shipped.inverse
    assert shipped.learned_from["pictures"] >= 23


def test_the_shipped_profile_reads_reference_cards(shipped):
    picture = table("reference", 0, "wood").pictures(DECK[::5], NEUTRAL_LIGHT)[0]
    reader = CardReader(shipped)
    for card, polygon in zip(picture.cards, picture.polygons):
        assert reader.read_card(picture.image, polygon).card is card


# --------------------------------------------------------------------- round trip
def test_save_and_load_give_the_same_profile(shipped, folder):
    loaded = Profile.load(folder)
    assert loaded.deck == shipped.deck and loaded.inverse == shipped.inverse and loaded.layout == shipped.layout
    assert loaded.thresholds == pytest.approx(shipped.thresholds)
    assert loaded.warnings == shipped.warnings and loaded.learned_from == shipped.learned_from
    for number in shipped.numbers:
        assert np.array_equal(loaded.templates[number], shipped.templates[number])
    for colour in shipped.colours:
        assert np.allclose(loaded.inks[colour], shipped.inks[colour], atol=1e-5)
    assert np.allclose(loaded.colour_covariance, shipped.colour_covariance, atol=1e-6)
    assert np.array_equal(loaded.face_print, shipped.face_print)
    assert sorted(p.name for p in folder.iterdir()) == ([FACE_PRINT_FILE] + [template_name(n) for n in range(1, 21)]
                                                        + ["profile.json"])


def test_a_numeral_box_in_the_upper_half_is_kept_and_mirrored_for_cards_upside_down(shipped, tmp_path):
    """A deck printing its numeral above an illustration (a Junior deck) has its box in
    the card's upper half: it is saved and loaded as it is, and on a card lying upside
    down the numeral is looked for in the mirrored box at the bottom."""
    layout = Layout(numeral_box_mm=(5.0, 13.0, 54.0, 42.0))
    assert layout.off_centre and not shipped.layout.off_centre
    assert layout.box_px() == (5, 13, 54, 42) and layout.box_px(turned=True) == (5, 49, 54, 78)
    assert shipped.layout.box_px(turned=True) == shipped.layout.box_px()
    h, w = layout.template_shape()
    templates = {n: cv2.resize(t, (w, h)) for n, t in shipped.templates.items()}
    profile = dataclasses.replace(shipped, layout=layout, templates=templates)
    profile.save(tmp_path / "junior")
    assert Profile.load(tmp_path / "junior").layout == layout


def test_saving_over_a_profile_removes_its_old_templates(shipped, folder):
    partial = Profile(deck="few", inverse=False, layout=shipped.layout, inks=shipped.inks,
                      colour_covariance=shipped.colour_covariance,
                      templates={n: shipped.templates[n] for n in (1, 2, 3)})
    partial.save(folder)
    assert sorted(p.name for p in folder.glob("*.png")) == [template_name(n) for n in (1, 2, 3)]
    assert Profile.load(folder).numbers == (1, 2, 3)


def test_a_profile_calibrated_before_the_face_print_existed_still_reads(shipped, folder):
    _edit_json(folder, lambda d: d.pop("face_print"))
    (folder / FACE_PRINT_FILE).unlink()
    older = Profile.load(folder)
    assert older.face_print is None
    picture = table("reference", 0, "wood").pictures(DECK[::9], NEUTRAL_LIGHT)[0]
    reader = CardReader(older)
    for card, polygon in zip(picture.cards, picture.polygons):
        reading = reader.read_card(picture.image, polygon)
        assert reading.card is card and reading.stray_ink == 0.0  # nothing to compare with: no stray ink


# --------------------------------------------------------------------- broken folders
def test_a_missing_folder_or_profile_file(tmp_path):
    with pytest.raises(ProfileError, match="no such profile folder"):
        Profile.load(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ProfileError, match=r"profile\.json: missing"):
        Profile.load(tmp_path / "empty")


def test_bad_json(folder):
    (folder / "profile.json").write_text('{"format": "elfer-card-profile", ')
    with pytest.raises(ProfileError, match=r"profile\.json: not valid JSON"):
        Profile.load(folder)


def test_not_a_profile_file(folder):
    (folder / "profile.json").write_text("[1, 2, 3]")
    with pytest.raises(ProfileError, match="not an elfer-card-profile file"):
        Profile.load(folder)


def test_a_wrong_version(folder):
    _edit_json(folder, lambda data: data.update(format_version=FORMAT_VERSION + 1))
    with pytest.raises(ProfileError, match=f"format_version {FORMAT_VERSION + 1} is not supported"):
        Profile.load(folder)


def test_a_missing_template(folder):
    (folder / template_name(7)).unlink()
    with pytest.raises(ProfileError, match=r"numeral_07\.png: missing template"):
        Profile.load(folder)


def test_a_corrupt_template(folder):
    (folder / template_name(12)).write_bytes(b"\x89PNG garbage")
    with pytest.raises(ProfileError, match=r"numeral_12\.png: not a readable PNG"):
        Profile.load(folder)


def test_a_template_of_the_wrong_size(folder, shipped):
    h, w = shipped.layout.template_shape()
    cv2.imwrite(str(folder / template_name(3)), np.zeros((h + 2, w), np.uint8))
    with pytest.raises(ProfileError, match=r"numeral_03\.png: wrong template size"):
        Profile.load(folder)


def test_a_face_print_of_the_wrong_size(folder, shipped):
    cv2.imwrite(str(folder / FACE_PRINT_FILE), shipped.face_print[:-4])
    with pytest.raises(ProfileError, match=r"face_print\.png: wrong image size 59 x 87, the card at matching scale "
                                           r"needs 59 x 91"):
        Profile.load(folder)


def test_a_missing_face_print(folder):
    (folder / FACE_PRINT_FILE).unlink()
    with pytest.raises(ProfileError, match=r"face_print\.png: missing image"):
        Profile.load(folder)


def test_a_colour_template(folder, shipped):
    h, w = shipped.layout.template_shape()
    cv2.imwrite(str(folder / template_name(4)), np.zeros((h, w, 3), np.uint8))
    with pytest.raises(ProfileError, match=r"numeral_04\.png: must be an 8-bit grey image"):
        Profile.load(folder)


def test_a_blank_template(folder, shipped):
    h, w = shipped.layout.template_shape()
    cv2.imwrite(str(folder / template_name(5)), np.full((h, w), 128, np.uint8))
    with pytest.raises(ProfileError, match=r"numeral_05\.png: the template is blank"):
        Profile.load(folder)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.pop("layout"), "missing field 'layout'"),
    (lambda d: d["layout"].update(numeral_box_mm=[5, 20, 50, 71]), "centred across"),
    (lambda d: d["layout"].update(numeral_box_mm=[5, 20, 70, 71]), "not inside"),
    (lambda d: d["layout"].update(colour="red"), "unknown layout field"),
    (lambda d: d["inks"]["R"].update(chroma=[1, "x"]), r"inks\.R\.chroma"),
    (lambda d: d["inks"].update(Q={"chroma": [0, 0]}), "unknown colour"),
    (lambda d: d.update(colour_covariance=[[1, 2], [2, 1]]), "positive semi-definite"),
    (lambda d: d.update(colour_covariance=[[1, 0, 0]]), "colour_covariance"),
    (lambda d: d.update(inverse="no"), "inverse"),
    (lambda d: d["numerals"].update({"21": "numeral_21.png"}), "numeral_21.png: missing template"),
    (lambda d: d["numerals"].update({"7": "../numeral_07.png"}), "file name in the profile folder"),
    (lambda d: d.update(numerals={}), "no numeral templates"),
    (lambda d: d["thresholds"].update(min_confidence="high"), "could not convert|thresholds"),
])
def test_broken_fields(folder, change, message):
    _edit_json(folder, change)
    with pytest.raises(ProfileError, match=message) as error:
        Profile.load(folder)
    assert "profile.json" in str(error.value) or ".png" in str(error.value)


def test_a_profile_is_validated_when_made(shipped):
    with pytest.raises(ProfileError, match="numeral_02.png"):
        Profile(deck="x", inverse=False, layout=shipped.layout, inks=shipped.inks,
                colour_covariance=shipped.colour_covariance, templates={2: np.zeros((3, 3), np.uint8)})
    with pytest.raises(ProfileError, match="centred across"):
        Profile(deck="x", inverse=False, layout=Layout(numeral_box_mm=(5, 20, 50, 71)), inks=shipped.inks,
                colour_covariance=shipped.colour_covariance, templates=shipped.templates)
    with pytest.raises(ProfileError, match="no ink colours"):
        Profile(deck="x", inverse=False, layout=shipped.layout, inks={},
                colour_covariance=shipped.colour_covariance, templates=shipped.templates)


def test_a_save_that_fails_keeps_the_profile_that_was_there(folder, shipped, monkeypatch):
    """Calibrating again into a profile's folder on a full disk: the old profile still loads."""
    (folder / "notes.txt").write_text("our deck, calibrated at grandma's")
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    writes = []

    def fail_after_a_few(path, image, *args):
        writes.append(path)
        if len(writes) > 3:
            raise OSError("disk full")
        return cv2.imencode(".png", image)[1].tofile(path) is None
    monkeypatch.setattr(cv2, "imwrite", fail_after_a_few)
    with pytest.raises(OSError, match="disk full"):
        shipped.save(folder)
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before  # the staging folder went too
    assert Profile.load(folder).numbers == shipped.numbers


def test_a_save_over_a_profile_replaces_it_and_keeps_other_files(folder, shipped):
    (folder / "notes.txt").write_text("our deck")
    (folder / "numeral_21.png").write_bytes(b"a stale numeral")
    smaller = dataclasses.replace(shipped, templates={n: shipped.templates[n] for n in range(1, 12)})
    smaller.save(folder)
    assert Profile.load(folder).numbers == tuple(range(1, 12))
    assert not (folder / "numeral_12.png").exists() and not (folder / "numeral_21.png").exists()
    assert (folder / "notes.txt").read_text() == "our deck" and not (folder / ".saving").exists()


def test_a_save_cut_off_while_swapping_in_leaves_the_new_profile_whole(folder, shipped, monkeypatch):
    """The power goes while the new profile's files replace the old ones: the folder
    loads as the new profile, never as the old one's profile.json over new images, and
    the next save finishes the job."""
    smaller = dataclasses.replace(shipped, templates={n: shipped.templates[n] for n in range(1, 12)})
    copy = shutil.copyfile
    copies = []

    def cut_off_after_a_few(source, target, *args, **kwargs):
        copies.append(target)
        if len(copies) > 5:
            Path(target).write_bytes(Path(source).read_bytes()[:100])  # half copied
            raise OSError("power cut")
        return copy(source, target, *args, **kwargs)
    monkeypatch.setattr(shutil, "copyfile", cut_off_after_a_few)
    with pytest.raises(OSError, match="power cut"):
        smaller.save(folder)
    monkeypatch.setattr(shutil, "copyfile", copy)
    assert not (folder / "profile.json").exists()  # the old one went first: no mixture
    assert Profile.load(folder).numbers == tuple(range(1, 12))
    (folder / "notes.part").write_text("the family's own file")
    other = dataclasses.replace(shipped, templates={n: shipped.templates[n] for n in range(1, 6)})
    other.save(folder)
    assert Profile.load(folder).numbers == tuple(range(1, 6))
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        ["profile.json", "face_print.png", "notes.part", *(f"numeral_{n:02d}.png" for n in range(1, 6))])


def test_a_save_cut_off_while_staging_leaves_the_old_profile(folder, shipped):
    (folder / ".saving").mkdir()
    (folder / ".saving" / "numeral_01.png").write_bytes(b"half a picture")  # no profile.json: not a whole profile
    assert Profile.load(folder).numbers == tuple(range(1, 21))
    shipped.save(folder)
    assert not (folder / ".saving").exists()


def test_a_copied_profile_folder_loads_anywhere(folder, tmp_path):
    shutil.copytree(folder, tmp_path / "elsewhere")
    assert Profile.load(tmp_path / "elsewhere").numbers == tuple(range(1, 21))
