"""Numeral seeds (companion.bench.search_seeds): where a card's numeral shows on paper, so the
pipeline can look for a card the edges gave no outline for."""

from __future__ import annotations

import cv2
import numpy as np

from companion.sim.lighting import Lighting
from companion.vision.area import PlayArea
from companion.vision.markers import MARKER_SIZE_MM, corner_positions_mm
from companion.bench.search_seeds import SEED_PX_PER_MM, fill_seed_groups, fill_seeds, numeral_seed_groups, numeral_seeds

from test_find import FULLY_VISIBLE, _laid_out


def _seeds_and_centres(style: str, surface: str, lighting: Lighting | None = None):
    frame, labels = _laid_out(style, surface, lighting)
    view = PlayArea().update(frame)
    fine, scale = view.resampled(SEED_PX_PER_MM)
    markers = (view.mm_to_view(np.array(list(corner_positions_mm().values()))) + 0.5) / scale - 0.5
    seeds = numeral_seeds(fine, SEED_PX_PER_MM, markers, 0.5 * MARKER_SIZE_MM + 10)
    centres = {label["card"]: (view.frame_to_view(np.asarray(label["polygon"], float)).mean(axis=0) + 0.5) / scale - 0.5
               for label in labels}
    return seeds, centres, markers


def test_every_fully_visible_paper_card_has_a_seed_near_its_numeral():
    for style, surface in (("reference", "wood"), ("cream", "mat"), ("condensed", "cloth")):
        seeds, centres, _ = _seeds_and_centres(style, surface)
        points = np.array([(x, y) for x, y, _ in seeds])
        for card in FULLY_VISIBLE:
            nearest = np.hypot(*(points - centres[card]).T).min()
            # within reach of the outline refinement (REACH_MM), which starts from the seed
            assert nearest <= 12 * SEED_PX_PER_MM, (style, card, nearest)


def test_cream_board_under_a_warm_lamp_still_gives_seeds():
    """Under a 2,800 K bulb with little white balance, cream board looks as saturated as
    the wood (no paper at all by the plain saturation test): the seeds are found in the
    view with the paper's tint taken out."""
    seeds, centres, _ = _seeds_and_centres("cream", "wood", Lighting(colour_temperature_k=2800.0, white_balance=0.4))
    points = np.array([(x, y) for x, y, _ in seeds]).reshape(-1, 2)
    for card in FULLY_VISIBLE:
        assert len(points) and np.hypot(*(points - centres[card]).T).min() <= 12 * SEED_PX_PER_MM, card


def test_seeds_give_the_cards_turn_and_keep_off_the_markers():
    seeds, centres, markers = _seeds_and_centres("reference", "wood")
    for x, y, theta in seeds:
        assert abs(np.degrees(theta)) <= 45
        assert np.hypot(*(markers - (x, y)).T).min() > 30 * SEED_PX_PER_MM
    # G20 lies turned by 12° in the view, Y7 by 15° the other way (and upside down): the seeds say so
    for card, turn in (("G20", 12), ("Y7", -15), ("R5", 0)):
        x, y, theta = min(seeds, key=lambda s: np.hypot(s[0] - centres[card][0], s[1] - centres[card][1]))
        assert abs(np.degrees(theta) - turn) <= 3, card


def test_a_bare_table_gives_no_seeds():
    rng = np.random.default_rng(0)
    wood = np.clip(rng.normal((40, 90, 150), 12, (400, 500, 3)), 0, 255).astype(np.uint8)
    assert numeral_seeds(wood) == []
    assert numeral_seeds(np.zeros((400, 500, 3), np.uint8)) == []


def test_small_ink_marks_no_numeral_but_a_digit_does():
    """A sheet of paper on dark wood with a patch of dots the size of a corner index's
    digits (4 mm, 6 mm apart) gives no seed; one digit-sized stroke (6 × 24 mm) gives a
    seed on it."""
    view = np.full((300, 300, 3), (40, 70, 110), np.uint8)  # wood, at 1 px/mm
    view[50:250, 60:240] = 235  # paper
    for x in range(80, 116, 6):
        for y in range(80, 116, 6):
            view[y:y + 4, x:x + 4] = (180, 40, 30)  # blue dots
    assert numeral_seeds(view, 1.0) == []
    view[140:164, 147:153] = (180, 40, 30)  # a digit's upright stroke
    (x, y, _), = numeral_seeds(view, 1.0)
    assert abs(x - 150) <= 8 and abs(y - 152) <= 8


def test_a_faint_digit_gives_a_seed_after_the_others():
    """A digit's stroke only a little darker than its paper (a pale ink blurred by motion:
    neither dark nor saturated) gives a seed, in the second group, after the clear digit
    of another card."""
    view = np.full((300, 400, 3), (40, 70, 110), np.uint8)  # wood, at 1 px/mm
    view[50:141, 60:119] = view[50:141, 260:319] = 235  # two cards' paper
    view[83:107, 87:93] = (180, 40, 30)  # a clear blue stroke on the first
    view[83:107, 287:293] = 205  # a faint grey one on the second
    clear, faint = numeral_seed_groups(view, 1.0)
    assert len(clear) == 1 and np.hypot(clear[0][0] - 90, clear[0][1] - 95) <= 8
    assert len(faint) == 1 and np.hypot(faint[0][0] - 290, faint[0][1] - 95) <= 8
    assert numeral_seeds(view, 1.0) == clear + faint
    view[83:107, 287:293] = 225  # fainter than any ink: paper's grain
    assert numeral_seed_groups(view, 1.0) == (clear, [])


def test_a_checked_cloth_gives_no_seeds_but_a_digit_on_a_card_does():
    """White squares of a checked cloth look like paper, and the coloured bands between
    them like ink on it; but the bands run together into one piece far larger than any
    deck's digit, so they mark no numeral (left alone they would take every seed)."""
    view = np.full((400, 400, 3), 235, np.uint8)  # pale squares, at 1 px/mm
    for k in range(0, 400, 24):
        view[k:k + 8, :] = (60, 160, 220)  # yellow bands, across …
        view[:, k:k + 8] = (60, 160, 220)  # … and down
    assert numeral_seeds(view, 1.0) == []
    view[150:241, 150:209] = 240  # a card
    view[183:207, 177:183] = (180, 40, 30)  # its numeral: one digit's upright stroke
    seeds = numeral_seeds(view, 1.0)
    assert seeds and np.hypot(seeds[0][0] - 180, seeds[0][1] - 195) <= 8


def _filled_card(view, centre, turn_deg, colour):
    """A card filled with ``colour``, a paper numeral in its middle, at 1 px/mm."""
    corners = cv2.boxPoints((centre, (59, 91), turn_deg))
    cv2.fillPoly(view, [np.int32(np.round(corners))], colour)
    x, y = centre
    view[int(y) - 12:int(y) + 12, int(x) - 10:int(x) - 4] = 240  # "11"
    view[int(y) - 12:int(y) + 12, int(x) + 4:int(x) + 10] = 240


def test_cards_filled_with_colour_give_a_seed_each_and_a_wooden_table_none():
    """Two cards of a row 4 mm apart stay two cards; a region of wood-coloured saturation
    far larger than a card, and a strip of it, are none."""
    view = np.full((400, 500, 3), (150, 150, 150), np.uint8)  # a grey cloth, at 1 px/mm
    _filled_card(view, (100.0, 120.0), 0.0, (40, 40, 220))
    _filled_card(view, (163.0, 120.0), 0.0, (40, 40, 220))
    _filled_card(view, (140.0, 280.0), 12.0, (60, 170, 60))
    view[20:380, 300:480] = (40, 90, 150)  # wood
    view[360:375, 20:260] = (40, 90, 150)
    seeds = fill_seeds(view, 1.0)
    assert len(seeds) == 3
    for x, y, turn in ((100, 120, 0), (163, 120, 0), (140, 280, 12)):
        sx, sy, theta = min(seeds, key=lambda s: np.hypot(s[0] - x, s[1] - y))
        assert np.hypot(sx - x, sy - y) <= 2 and abs(np.degrees(theta) - turn) <= 1.5


def test_a_card_filled_with_colour_joined_to_its_neighbour_by_a_shadow_gives_a_seed():
    """A wedge of dark shadow as saturated as the fill joins a card to its neighbour
    (``elfer bench vision`` scene 938): too wide to be cut off as a bridge, together they
    are no card. Shrunk a few millimetres, each is."""
    view = np.full((300, 400, 3), (150, 150, 150), np.uint8)
    _filled_card(view, (120.0, 150.0), 0.0, (40, 40, 220))
    _filled_card(view, (185.0, 150.0), 0.0, (40, 40, 220))
    view[183:189, 148:158] = (30, 30, 120)  # the shadow: a bridge 6 mm wide between the fills
    seeds, _ = fill_seed_groups(view, 1.0)
    assert len(seeds) == 2
    for x in (120, 185):
        assert min(np.hypot(sx - x, sy - 150) for sx, sy, _ in seeds) <= 2


def test_the_last_card_of_a_fanned_row_filled_with_colour_gives_a_seed_at_its_numeral():
    """The fills of a fanned row's cards are one region, no card's shape, with the last
    card's paper numeral whole in it, and its neighbours' only in part. The numeral gives a
    seed; no card-shaped region does."""
    view = np.full((300, 400, 3), (150, 150, 150), np.uint8)
    for x in (100.0, 118.0, 136.0):
        _filled_card(view, (x, 150.0), 0.0, (200, 80, 30))
    cards, numerals = fill_seed_groups(view, 1.0)
    assert cards == []
    assert min(np.hypot(x - 136, y - 150) for x, y, _ in numerals) <= 4


def test_a_card_filled_with_the_cloths_own_colour_gives_a_seed_inside_its_paper_rim():
    """A red card on a red cloth: the cloth and the fill are one colour, and only the
    card's thin paper rim tells them apart. The card is a region of its own, ringed by
    the cloth's."""
    view = np.full((300, 300, 3), (40, 40, 200), np.uint8)  # a red cloth, at 1 px/mm
    corners = np.int32(np.round(cv2.boxPoints(((150.0, 150.0), (63, 95), 8.0))))
    cv2.fillPoly(view, [corners], (240, 240, 240))  # the card's paper …
    _filled_card(view, (150.0, 150.0), 8.0, (40, 40, 220))  # … and its fill, a 2 mm rim inside
    seeds = fill_seeds(view, 1.0)
    assert len(seeds) == 1
    x, y, turn = seeds[0]
    assert np.hypot(x - 150, y - 150) <= 2 and abs(np.degrees(turn) - 8) <= 1.5


def test_cards_filled_with_colour_under_a_warm_lamp_give_a_seed_each():
    """Under a 2,800 K bulb with little white balance, wood and pale cloths are as
    saturated as a colour fill and swallow the cards that lie on them: looked at again
    with the paper's tint taken out, every fully visible card of the inverse deck gives
    a seed on any surface (without it 0 of 8 on wood, 3 on the mat, 5 on the cloths)."""
    warm = Lighting(colour_temperature_k=2800.0, white_balance=0.4)
    for surface in ("wood", "cloth", "pattern", "mat"):
        frame, labels = _laid_out("inverse", surface, warm)
        view = PlayArea().update(frame)
        fine, scale = view.resampled(SEED_PX_PER_MM)
        points = np.array([(x, y) for x, y, _ in fill_seeds(fine, SEED_PX_PER_MM)]).reshape(-1, 2)
        for label in labels:
            if label["card"] in FULLY_VISIBLE:
                centre = (view.frame_to_view(np.asarray(label["polygon"], float)).mean(axis=0) + 0.5) / scale - 0.5
                assert len(points) and np.hypot(*(points - centre).T).min() <= 12 * SEED_PX_PER_MM, (surface, label["card"])
