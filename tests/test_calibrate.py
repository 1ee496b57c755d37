"""Calibration: learning a deck from a folder of single-card pictures named by card, its
report and warnings, and the clear errors for folders it cannot use."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cards import DECK, Card, Colour
from companion.cli import main as elfer
from companion.vision import calibration as calibrate_module
from companion.vision.calibration import CalibrationError, calibrate, card_of_filename
from companion.vision.digits import ncc
from companion.bench.evaluate_read import NEUTRAL_LIGHT, calibration_crops, calibration_set, table
from companion.vision.profile import Profile
from companion.vision.card_reader import CardReader, upright_corners
from companion.vision.single import find_card

STYLE, SURFACE = "reference", "mat"


@pytest.fixture(scope="module")
def grid():
    """The 23 calibration cards and the rest of the deck, laid out on one table."""
    return table(STYLE, 1, SURFACE).pictures(DECK, NEUTRAL_LIGHT)


@pytest.fixture(scope="module")
def crops(grid):
    """One picture per card, cut out of the grid pictures."""
    return calibration_crops(grid)


def _write(folder, crops, cards, name=lambda card: f"{card.code}.png"):
    folder.mkdir(parents=True, exist_ok=True)
    for card in cards:
        assert cv2.imwrite(str(folder / name(card)), crops[card][0])
    return folder


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory, crops):
    names = {0: lambda c: f"{c.code}.png", 1: lambda c: f"{c.code.lower()}-2.png", 2: lambda c: f"{c.code}_b.jpg"}
    folder = tmp_path_factory.mktemp("pictures")
    for i, card in enumerate(calibration_set()):
        _write(folder, crops, [card], names[i % 3])
    profile, report = calibrate(folder, deck_name="reference deck")
    return folder, profile, report


# --------------------------------------------------------------------- names
@pytest.mark.parametrize("name, code", [("R11.png", "R11"), ("r11-2.jpg", "R11"), ("Y3_b.png", "Y3"),
                                        ("g20-left.JPEG", "G20"), ("b1.png", "B1"), ("R07.png", "R7")])
def test_file_names_give_the_card(name, code):
    assert card_of_filename(name) is Card.parse(code)


@pytest.mark.parametrize("name", ["X11.png", "R21.png", "R0.png", "R1a.png", "notes.txt", "R.png", "11R.png"])
def test_other_file_names_give_no_card(name):
    assert card_of_filename(name) is None


# --------------------------------------------------------------------- learning
def test_the_23_pictures_teach_all_numbers_and_colours(calibrated, grid):
    _, profile, report = calibrated
    assert report.pictures == 23 and report.numbers == list(range(1, 21))
    assert report.colours == ["R", "Y", "G", "B"]
    assert report.self_test == (23, 23) and report.warnings == []
    assert not report.inverse and profile.learned_from["full_colours"] == ["R"]
    text = report.text()
    assert "1-20 (20 of 20)" in text and "R, Y, G, B" in text and "23 of 23 right" in text
    # and then every card of the deck reads right, and as a whole card: no ink where the deck prints nothing
    reader = CardReader(profile)
    for picture in grid:
        for card, polygon in zip(picture.cards, picture.polygons):
            reading = reader.read_card(picture.image, polygon)
            assert reading.card is card and reading.stray_ink <= profile.thresholds["max_stray_ink"]


def test_calibration_learns_where_the_deck_prints(calibrated):
    _, profile, _ = calibrated
    face = profile.face_print  # 1 px per mm: rows are millimetres down, columns across
    assert face.shape == (91, 59)
    assert face[10, 8] == 255 and face[91 - 10, 59 - 8] == 255  # the corner indices, top left and bottom right
    assert face[45, 29] == 255  # the numeral
    assert face[12, 29] == 0 and face[91 - 12, 29] == 0  # between the indices the reference deck is bare


def test_a_calibrated_profile_saves_and_loads(calibrated, tmp_path):
    _, profile, _ = calibrated
    profile.save(tmp_path / "deck")
    loaded = Profile.load(tmp_path / "deck")
    assert loaded.deck == "reference deck" and loaded.numbers == tuple(range(1, 21))
    assert loaded.layout == profile.layout and loaded.inverse == profile.inverse
    for number in loaded.numbers:
        assert np.array_equal(loaded.templates[number], profile.templates[number])
    for colour in Colour:
        assert np.allclose(loaded.inks[colour], profile.inks[colour], atol=1e-5)


def test_the_command_line_writes_a_profile_and_reports_in_german_or_english(calibrated, tmp_path, capsys):
    folder, _, _ = calibrated
    assert elfer(["calibrate", "--images", str(folder), "--out", str(tmp_path / "p"), "--name", "mine"]) == 0
    out = capsys.readouterr().out
    assert "gelernte Zahlen: 1-20 (20 von 20)" in out and "liest die eigenen Bilder: 23 von 23 richtig" in out
    assert "gelernte Farben: Rot, Gelb, Grün, Blau" in out
    assert f"Profil geschrieben nach {tmp_path / 'p'}" in out
    assert elfer(["calibrate", "--images", str(folder), "--out", str(tmp_path / "e"), "--lang", "en"]) == 0
    assert "numerals learned: 1-20 (20 of 20)" in capsys.readouterr().out
    assert json.loads((tmp_path / "p" / "profile.json").read_text())["deck"] == "mine"
    assert elfer(["calibrate", "--images", str(tmp_path / "nothing"), "--out", str(tmp_path / "q")]) == 2
    assert not (tmp_path / "q").exists()
    (tmp_path / "a file").write_text("not a folder")
    assert elfer(["calibrate", "--images", str(folder), "--out", str(tmp_path / "a file")]) == 2
    assert f"kann das Profil nicht nach {tmp_path / 'a file'} schreiben" in capsys.readouterr().err


def test_pictures_larger_than_the_cap_are_scaled_down_and_teach_the_same(crops, tmp_path, monkeypatch):
    """A phone's photos: each picture's long side capped as it loads (here at twice the
    crops' size, for speed), the deck learned from them all the same."""
    monkeypatch.setattr(calibrate_module, "MAX_PICTURE_SIDE", 360)
    big = {card: [cv2.resize(crops[card][0], None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)]
           for card in calibration_set()}
    folder = _write(tmp_path / "big", big, calibration_set())
    _write(folder, crops, [Card.parse("R11")], name=lambda card: "R11-small.png")  # small enough already
    profile, report = calibrate(folder, deck_name="phone")
    assert sorted(report.scaled_down) == sorted(f"{card.code}.png" for card in calibration_set())
    assert report.self_test == (24, 24) and report.numbers == list(range(1, 21))
    assert "scaled down to 360 px on their long side: 23 pictures" in report.text()


def test_a_picture_is_scaled_down_by_its_long_side_only_when_larger():
    picture = np.zeros((1000, 3000, 3), np.uint8)
    assert calibrate_module.scaled_down(picture, 1920).shape == (640, 1920, 3)
    assert calibrate_module.scaled_down(picture, 3000) is picture


def test_pictures_given_in_memory_with_card_codes(crops):
    pictures = {card.code: crops[card] for card in calibration_set()}
    profile, report = calibrate(pictures, deck_name="memory")
    assert report.self_test == (23, 23) and profile.numbers == tuple(range(1, 21))


def test_the_finder_locates_cards_in_pictures_with_the_markers():
    pictures = table(STYLE, 2, SURFACE).single([Card.parse(c) for c in ("R6", "Y11", "B20")], NEUTRAL_LIGHT)
    for picture in pictures:
        corners, found_by = find_card(picture.image)
        assert corners is not None, picture.cards[0]
        truth = upright_corners(picture.polygons[0])
        error = min(np.abs(np.roll(upright_corners(corners), k, axis=0) - truth).max() for k in range(4))
        assert error < 2.5, (picture.cards[0], found_by, error)


# --------------------------------------------------------------------- warnings
def test_a_colour_without_pictures_and_a_colour_without_its_11_are_warned(tmp_path, crops):
    cards = [c for c in calibration_set() if c.colour is not Colour.BLUE and c != Card.parse("Y11")]
    cards.append(Card.parse("Y5"))
    profile, report = calibrate(_write(tmp_path / "p", crops, cards), deck_name="partial")
    assert profile.colours == (Colour.RED, Colour.YELLOW, Colour.GREEN)
    assert any("blue" in str(w) and "unknown" in str(w) for w in report.warnings)
    assert any("yellow has no picture of its 11" in str(w) for w in report.warnings)
    assert profile.warnings == [str(w) for w in report.warnings][:len(profile.warnings)]


# --------------------------------------------------------------------- errors
def test_a_missing_or_empty_folder_is_an_error(tmp_path):
    with pytest.raises(CalibrationError, match="no such folder"):
        calibrate(tmp_path / "missing", deck_name="x")
    (tmp_path / "R11.png").write_bytes(b"")
    with pytest.raises(CalibrationError, match="R11.png: a file, not a folder of pictures"):
        calibrate(tmp_path / "R11.png", deck_name="x")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CalibrationError, match="no pictures"):
        calibrate(tmp_path / "empty", deck_name="x")


def test_pictures_in_a_format_it_cannot_read_are_named_with_what_to_do(tmp_path, capsys):
    """An iPhone saves HEIC by default: the folder is not empty, its pictures are unreadable."""
    phone = tmp_path / "phone"
    phone.mkdir()
    for code in ("R1", "R2", "Y11"):
        (phone / f"{code}.HEIC").write_bytes(b"ftypheic")
    assert elfer(["calibrate", "--images", str(phone), "--out", str(tmp_path / "profile")]) == 2
    assert "Bilder als .heic, die es nicht lesen kann: als JPEG speichern" in capsys.readouterr().err
    with pytest.raises(CalibrationError, match=r"pictures saved as \.heic, which it cannot read: save them as JPEG"):
        calibrate(phone, deck_name="x")


def test_a_picture_in_a_format_it_cannot_read_among_the_others_is_named(tmp_path, crops):
    folder = _write(tmp_path / "p", crops, [c for c in calibration_set() if c != Card.parse("R5")])
    (folder / "R5.HEIC").write_bytes(b"ftypheic")
    with pytest.raises(CalibrationError, match=r"lacks 5\); left out: R5.HEIC: a format it cannot read"):
        calibrate(folder, deck_name="x")


def test_pictures_without_card_names_are_an_error(tmp_path, crops):
    folder = tmp_path / "unnamed"
    folder.mkdir()
    cv2.imwrite(str(folder / "IMG_0001.png"), crops[Card.parse("R1")][0])
    cv2.imwrite(str(folder / "holiday.jpg"), crops[Card.parse("R2")][0])
    with pytest.raises(CalibrationError, match="named by its card.*IMG_0001.png"):
        calibrate(folder, deck_name="x")


def test_a_picture_that_is_not_an_image_is_an_error(tmp_path, crops):
    folder = _write(tmp_path / "p", crops, calibration_set())
    (folder / "R5.png").write_bytes(b"not a png")
    with pytest.raises(CalibrationError, match="R5.png: not a readable picture"):
        calibrate(folder, deck_name="x")


def _table_only(crops) -> np.ndarray:
    table_only = np.full_like(crops[Card.parse("R5")][0], 90)
    table_only[..., 1] = 60
    return table_only


def test_a_picture_without_a_card_is_left_out_and_named(tmp_path, crops, capsys):
    folder = _write(tmp_path / "p", crops, calibration_set())
    cv2.imwrite(str(folder / "R5_2.png"), _table_only(crops))
    profile, report = calibrate(folder, deck_name="x")
    assert report.pictures == 23 and report.left_out == ["R5_2.png"] and report.self_test == (23, 23)
    assert [str(w) for w in report.warnings] == ["R5_2.png: no card found (nothing card-shaped in it): left out"]
    assert profile.numbers == tuple(range(1, 21)) and profile.warnings == [str(w) for w in report.warnings]
    # the command line writes the profile and says which picture it left out, and why
    out = tmp_path / "profile"
    assert elfer(["calibrate", "--images", str(folder), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "23 Bilder (1 weggelassen: R5_2.png)" in printed
    assert "Warnung: R5_2.png: keine Karte gefunden (nichts Kartenförmiges darin): weggelassen" in printed
    assert Profile.load(out).numbers == tuple(range(1, 21))


def test_strict_fails_on_a_picture_without_a_card_and_writes_nothing(tmp_path, crops, capsys):
    folder = _write(tmp_path / "p", crops, calibration_set())
    cv2.imwrite(str(folder / "R5_2.png"), _table_only(crops))
    with pytest.raises(CalibrationError, match="R5_2.png: no card found"):
        calibrate(folder, deck_name="x", strict=True)
    out = tmp_path / "profile"
    assert elfer(["calibrate", "--images", str(folder), "--out", str(out), "--strict", "--lang", "en"]) == 2
    assert "R5_2.png: no card found" in capsys.readouterr().err
    assert not out.exists()


def test_a_lost_picture_the_profile_needs_is_an_error_that_names_it(tmp_path, crops, capsys):
    folder = _write(tmp_path / "p", crops, [c for c in calibration_set() if c != Card.parse("R5")])
    cv2.imwrite(str(folder / "R5.png"), _table_only(crops))
    with pytest.raises(CalibrationError, match=r"red, lacks 5\); left out: R5.png: no card found") as raised:
        calibrate(folder, deck_name="x")
    assert raised.value.left_out == ["R5.png"]
    few = _write(tmp_path / "few", crops, [Card.parse("R4"), Card.parse("Y11")])
    cv2.imwrite(str(few / "R5_2.png"), _table_only(crops))
    out = tmp_path / "profile"
    assert elfer(["calibrate", "--images", str(few), "--out", str(out)]) == 2
    assert "keine Farbe hat alle 20 Karten" in (err := capsys.readouterr().err)
    assert "weggelassen: R5_2.png: keine Karte gefunden (nichts Kartenförmiges darin)" in err
    assert not out.exists()


def test_black_and_white_pictures_are_an_error_and_one_among_colour_ones_is_left_out(tmp_path, crops, capsys):
    grey = {card: [cv2.cvtColor(cv2.cvtColor(crops[card][0], cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)]
            for card in calibration_set()}
    folder = _write(tmp_path / "grey", grey, calibration_set())
    out = tmp_path / "profile"
    assert elfer(["calibrate", "--images", str(folder), "--out", str(out)]) == 2
    assert "alle 23 Bilder sind schwarz-weiß" in capsys.readouterr().err and not out.exists()
    mixed = _write(tmp_path / "mixed", crops, calibration_set())
    cv2.imwrite(str(mixed / "R5_2.png"), grey[Card.parse("R5")][0])
    profile, report = calibrate(mixed, deck_name="x")
    assert report.left_out == ["R5_2.png"] and report.self_test == (23, 23)
    assert [str(w) for w in report.warnings] == [
        "R5_2.png: a black-and-white picture: it shows no colours (take it in colour): left out"]


def test_a_picture_named_for_another_colour_is_an_error_that_names_it(tmp_path, crops, capsys):
    """Y11.png showing the green 11: yellow and green would be learned as one ink, and the
    profile would read neither."""
    folder = _write(tmp_path / "p", crops, [c for c in calibration_set() if c != Card.parse("Y11")])
    cv2.imwrite(str(folder / "Y11.png"), crops[Card.parse("G11")][0])
    with pytest.raises(CalibrationError, match="the yellow and the green ink learned look alike"):
        calibrate(folder, deck_name="x")
    assert elfer(["calibrate", "--images", str(folder), "--out", str(tmp_path / "profile")]) == 2
    assert "zeigt Y11.png wirklich eine gelbe Karte?" in capsys.readouterr().err
    assert not (tmp_path / "profile").exists()


def test_a_profile_that_cannot_read_its_own_pictures_is_not_made(tmp_path, crops, monkeypatch):
    """Whatever the cause, a profile reading fewer than half of its own pictures would read no table."""
    from companion.vision import card_reader as read

    def unsure(self, image, corners, *args, **kwargs):
        return read.CardReading(None, 0.0, False)
    monkeypatch.setattr(calibrate_module.CardReader, "read_card", unsure)
    with pytest.raises(CalibrationError, match="reads only 0 of its own 23 pictures right"):
        calibrate(_write(tmp_path / "p", crops, calibration_set()), deck_name="x")


def test_fewer_than_one_full_colour_is_an_error(tmp_path, crops):
    cards = [c for c in calibration_set() if c != Card.parse("R17")]
    with pytest.raises(CalibrationError, match="all 20 cards of one colour.*lacks 17"):
        calibrate(_write(tmp_path / "p", crops, cards), deck_name="x")
    with pytest.raises(CalibrationError, match="all 20 cards"):
        calibrate(_write(tmp_path / "q", crops, [c for c in calibration_set() if c.number == 11]), deck_name="x")


@pytest.fixture(scope="module")
def condensed_grid():
    return table("condensed", 1, "wood").pictures(DECK, NEUTRAL_LIGHT)


@pytest.mark.parametrize("shift_mm", [2.5, -2.5])
def test_a_picture_whose_outline_is_found_a_few_millimetres_off_still_teaches_its_numeral(condensed_grid, shift_mm):
    """On a busy tablecloth the outline found may lie a few millimetres beside the card:
    the condensed deck's wide 18 then has its first digit clear of the card's middle, and
    the numeral must still be centred from both digits before it becomes the template
    (else every 18 reads unknown)."""
    from companion.bench.evaluate_read import crop_around

    wanted = set(calibration_set())
    pictures = {}
    for picture in condensed_grid:
        for card, polygon in zip(picture.cards, picture.polygons):
            if card in wanted:
                image, outline = crop_around(picture.image, np.asarray(polygon, float), 30)
                if card is Card.parse("R18"):
                    outline = outline + shift_mm * (outline[1] - outline[0]) / 59.0
                pictures[card] = [(image, outline)]
    profile, _ = calibrate(pictures, deck_name="off")
    _assert_reads_every(18, profile, condensed_grid)


def _assert_reads_every(number: int, profile: Profile, grid) -> None:
    """All four cards of ``number`` on the grid pictures read as themselves."""
    reader = CardReader(profile)
    cards = [(picture.image, polygon, card) for picture in grid
             for card, polygon in zip(picture.cards, picture.polygons) if card.number == number]
    assert len(cards) == 4
    for image, polygon, card in cards:
        assert reader.read_card(image, polygon).card is card


def _shaken(picture: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(picture, (0, 0), 2.5)


def _in_glare(picture: np.ndarray, strength: float = 0.7) -> np.ndarray:
    """A lamp's reflection over the middle of the picture: the card washes out towards white."""
    h, w = picture.shape[:2]
    rows, cols = np.mgrid[:h, :w]
    share = strength * np.exp(-((cols - w / 2) ** 2 + (rows - h / 2) ** 2) / (2 * (0.25 * min(h, w)) ** 2))
    return np.uint8(np.clip(picture * (1 - share[..., None]) + 255 * share[..., None], 0, 255))


@pytest.fixture(scope="module")
def inverse_crops():
    """One picture per card of an inverse deck (white numerals on a colour fill)."""
    return calibration_crops(table("inverse", 1, "cloth").pictures(DECK, NEUTRAL_LIGHT))


# How a picture is spoiled: the pictures it is one of, its card, the spoiling. A blurred
# template matches other blurred numerals too well; an inverse card's white numeral under
# a glare spot hardly stands out from the paled fill, and its template matches nothing well.
POOR = {"blurred": ("crops", "R19", _shaken), "washed out": ("inverse_crops", "R17", _in_glare)}


@pytest.mark.parametrize("poor", POOR)
def test_a_poor_picture_is_named_for_a_retake(poor, tmp_path, request, capsys):
    """The only picture of its number: the numeral is still learned from it, but the
    report names it, and so does the command line."""
    crops_name, code, spoil = POOR[poor]
    crops = request.getfixturevalue(crops_name)
    folder = _write(tmp_path / "p", crops, calibration_set())
    cv2.imwrite(str(folder / f"{code}.png"), spoil(crops[Card.parse(code)][0]))
    profile, report = calibrate(folder, deck_name="x")
    assert report.retake == [f"{code}.png"] and report.left_out == []
    assert profile.numbers == tuple(range(1, 21))
    assert elfer(["calibrate", "--images", str(folder), "--out", str(tmp_path / "profile")]) == 0
    why = {"blurred": "unscharf (verwackelt oder nicht scharf gestellt)",
           "washed out": "überstrahlt (Blendung oder zu viel Licht)"}[poor]
    assert f"Warnung: {why}: {code}.png" in capsys.readouterr().out


@pytest.mark.parametrize("poor", POOR)
def test_a_poor_picture_beside_a_good_one_of_its_number_teaches_no_numeral(poor, tmp_path, request):
    crops_name, code, spoil = POOR[poor]
    crops = request.getfixturevalue(crops_name)
    folder = _write(tmp_path / "p", crops, calibration_set())
    cv2.imwrite(str(folder / f"{code}_2.png"), spoil(crops[Card.parse(code)][0]))
    profile, report = calibrate(folder, deck_name="x")
    assert report.retake == [] and f"{code}_2.png is {poor}: its numeral was learned from the other pictures of " \
        "its number" in map(str, report.warnings)
    good_only, _ = calibrate(_write(tmp_path / "q", crops, calibration_set()), deck_name="x")
    number = Card.parse(code).number
    assert np.array_equal(profile.templates[number], good_only.templates[number])


def _given_outlines(grid, change=None) -> dict:
    """The calibration cards of the grid as (picture, outline) pairs, ``change`` applied
    to some of them: {card code: (picture, outline) -> (picture, outline)}."""
    from companion.bench.evaluate_read import crop_around

    wanted, pictures = set(calibration_set()), {}
    for picture in grid:
        for card, polygon in zip(picture.cards, picture.polygons):
            if card in wanted:
                given = crop_around(picture.image, np.asarray(polygon, float), 40)
                pictures[card] = [(change or {}).get(card.code, lambda *given: given)(*given)]
    return pictures


def _turned(degrees: float, down_mm: float = 0.0):
    """An outline turned about its middle and moved down the card."""
    def turn(image, outline):
        angle = np.radians(degrees)
        rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        middle = outline.mean(axis=0)
        down = down_mm * (outline[3] - outline[0]) / 91.0
        return image, (outline - middle) @ rotation.T + middle + down
    return turn


def _common_centre(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both templates cut to the shape they share, about their centres (numeral boxes
    learned from different pictures may differ by a millimetre)."""
    rows, columns = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])

    def cut(t):
        top, left = (t.shape[0] - rows) // 2, (t.shape[1] - columns) // 2
        return t[top:top + rows, left:left + columns]
    return cut(a), cut(b)


def test_an_outline_a_few_degrees_off_its_card_is_straightened(grid):
    """A search on a checked cloth can follow the cloth's lines, a few degrees off the
    card: the numeral learned from it would be turned as much (a cream 13 learned 8° off
    read the deck's 13s as 15s). The deck's print outside the numeral (frame, corner
    indices) tells how far the outline is off, and it is moved onto the card."""
    profile, report = calibrate(_given_outlines(grid, {"R13": _turned(8.0), "R2": _turned(-5.0)}), deck_name="x")
    assert sorted(report.straightened) == ["R13#1", "R2#1"]
    assert "outlines straightened: 2" in report.text()
    _assert_reads_every(13, profile, grid)
    _assert_reads_every(2, profile, grid)
    straight, _ = calibrate(_given_outlines(grid), deck_name="x")
    for number in (13, 2):  # the template is the one the card's true outline teaches
        assert ncc(*_common_centre(profile.templates[number] / 255.0, straight.templates[number] / 255.0)) > 0.95


def test_a_picture_whose_outline_misses_its_card_is_named_for_a_retake(grid):
    """An outline far off its card (across the card and the table beside it): moving it
    a little does not bring the deck's print where the other cards have it, so the picture
    is poorly outlined, and the only picture of its number is named for a retake."""
    profile, report = calibrate(_given_outlines(grid, {"R7": _turned(20.0, down_mm=12.0)}), deck_name="x")
    assert report.retake == ["R7#1"] and "R7#1" not in report.straightened
    assert any(str(w).startswith("poorly outlined (the card's edges were not found") and "R7#1" in str(w)
               for w in report.warnings)


def test_a_picture_the_profile_misreads_is_named(tmp_path, crops):
    """A yellow 17 saved as R17_2.png: the profile learns red from the red cards and reads
    that picture as the yellow 17 it is; the report names it, for the family to retake."""
    folder = _write(tmp_path / "p", crops, calibration_set())
    cv2.imwrite(str(folder / "R17_2.png"), crops[Card.parse("Y17")][0])
    _, report = calibrate(folder, deck_name="x")
    assert report.misread == ["R17_2.png"]
    assert report.self_test == (23, 24)
    assert "reads only 23 of its own 24 pictures right (not R17_2.png): retake those" in map(str, report.warnings)


def _glare_on_left(picture: np.ndarray) -> np.ndarray:
    """A lamp's reflection over the left half of the card: the paper there saturates."""
    h, w = picture.shape[:2]
    rows, cols = np.mgrid[:h, :w]
    share = np.exp(-((cols - 0.38 * w) ** 2 + (rows - h / 2) ** 2) / (2 * (0.18 * min(h, w)) ** 2))
    return np.uint8(np.clip(picture * (1 - 0.75 * share[..., None]) + 295 * 0.75 * share[..., None], 0, 255))


def test_a_numeral_half_under_glare_is_learned_whole(tmp_path, crops, grid):
    """Glare over the 1 of the only 17 leaves that digit pale beside a full 7: learned
    as it is, the template matched 12s as well as 17s and read the deck's 17s as 12s.
    Each stroke is evened to its own strength first, as the reader does under glare."""
    folder = _write(tmp_path / "p", crops, calibration_set())
    cv2.imwrite(str(folder / "R17.png"), _glare_on_left(crops[Card.parse("R17")][0]))
    profile, report = calibrate(folder, deck_name="x")
    template = profile.templates[17].astype(float) / 255.0
    halves = template[:, :template.shape[1] // 2], template[:, template.shape[1] // 2:]
    strokes = [float(np.percentile(half, 95)) for half in halves]  # the digits' strength
    assert min(strokes) > 0.8 * max(strokes)
    _assert_reads_every(17, profile, grid)


@pytest.mark.parametrize("name, off_centre", [("junior:0", True), ("disc:0", False)])
def test_a_deck_unlike_the_four_styles_is_calibrated_from_pictures_with_the_markers(tmp_path, name, off_centre):
    """Nothing about the print is assumed: a small numeral above an animal, or a numeral on
    a paper disc in a colour fill, is found as the card's edge and where the cards of
    different numbers differ; the profile reads all its own 23 pictures, and cards of the
    other colours it never saw. A numeral above an animal drawn for each card is matched
    in its own half of the card (a box about the centre holds the animal too, and the
    animals, unlike the numerals, differ from card to card)."""
    from companion.sim.datasets import write_cards

    write_cards(tmp_path / "calibration", name, variants=1, seed=7, cards=calibration_set())
    profile, report = calibrate(tmp_path / "calibration", deck_name=name)
    assert report.left_out == [] and report.self_test == (23, 23)
    assert report.numbers == list(range(1, 21)) and report.colours == ["R", "Y", "G", "B"]
    assert profile.layout.off_centre is off_centre
    others = [Card.parse(code) for code in ("Y9", "G3", "B16", "Y19", "G6", "B4")]
    written = write_cards(tmp_path / "others", name, variants=1, seed=11, cards=others)
    reader = CardReader(profile)
    named = []
    for path in written:
        image = cv2.imread(str(path))
        named.append(reader.read_card(image, find_card(image)[0]).card)
    assert all(seen in (card, None) for seen, card in zip(named, others)), named  # never another card
    assert sum(seen is not None for seen in named) >= 5, named
