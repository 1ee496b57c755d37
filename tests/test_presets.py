"""Every rule preset: what it changes against classic, played through the referee and the deal."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion import cli
from companion.cards import COLOURS, Card
from companion.rules import DRAW, NEXT, PLACE, PRESETS, ErrorCode, Place, PresetError, get_preset
from companion.rules.deal import Deal, IllegalMove
from helpers import BLUE, GREEN, NAMES, RED, YELLOW, C, dealt, new_game, ok, play, refused


# ================================================================= the catalogue
EXPECTED_PRESETS = {
    "classic", "draw-one", "draw-continue", "free-pass", "junior",
    "three-starts", "false-start", "any-start", "sixty",
}


def test_preset_catalogue():
    assert set(PRESETS) == EXPECTED_PRESETS
    assert list(PRESETS)[0] == "classic"
    for name, preset in PRESETS.items():
        assert preset.name == name
        assert get_preset(name) is preset


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_every_preset_has_titles_in_german_and_english_and_a_description(name):
    preset = PRESETS[name]
    assert set(preset.title) == {"de", "en"}
    assert preset.title["de"].strip() and preset.title["en"].strip()
    assert len(preset.description) > 40
    assert preset.source


def test_titles_are_distinct():
    for lang in ("de", "en"):
        titles = [p.title[lang] for p in PRESETS.values() if p.name != "junior"]
        assert len(set(titles)) == len(titles)


def test_unknown_preset():
    with pytest.raises(PresetError, match="classic"):
        get_preset("schnipp-schnapp")
    with pytest.raises(PresetError):
        get_preset(None)


# Each preset differs from classic only where its description says so.
DIFFERENCES = {
    "classic": set(),
    "draw-one": {"draw_limit", "source"},
    "draw-continue": {"drawn_card_ends_turn", "source"},
    "free-pass": {"free_pass", "source"},
    "junior": {"highest", "deal", "laid_out", "openers", "opening_card_starts", "opening_ends_turn",
               "draw_limit", "source"},
    "three-starts": {"openers", "opening_card_starts", "source"},
    "false-start": {"laid_out", "openers", "opening_card_starts", "opening_ends_turn", "source"},
    "any-start": {"openers", "openers_follow_first", "source"},
    "sixty": {"colours", "max_players"},
}


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_presets_differ_from_classic_only_where_documented(name):
    classic, preset = PRESETS["classic"], PRESETS[name]
    skip = {"name", "title", "description"}
    differing = {
        f.name for f in dataclasses.fields(preset)
        if f.name not in skip and getattr(preset, f.name) != getattr(classic, f.name)
    }
    assert differing == DIFFERENCES[name]


def test_elfer_rules_lists_every_preset_with_its_title(capsys):
    for lang in ("de", "en"):
        assert cli.main(["rules", "--lang", lang]) == 0
        out = capsys.readouterr().out
        for preset in PRESETS.values():
            assert any(line.split()[0] == preset.name and preset.title[lang] in line for line in out.splitlines())


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_elfer_rules_name_prints_the_description(capsys, name):
    assert cli.main(["rules", name, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert PRESETS[name].title["en"] in out
    assert PRESETS[name].description in out
    assert out.count("\n") >= 2


# ================================================================= draw-one
def test_draw_one_draws_a_single_card():
    game = play(new_game("draw-one"), "R11 |")
    ok(game.draw())
    verdict = refused(game.draw(), ErrorCode.DRAW_LIMIT, "draw_limit_one")
    assert verdict.message("de") == "Nur eine Karte ziehen"
    assert verdict.message("en") == "Draw only one card"
    assert game.stock == 39
    ok(game.next())  # after the one card the turn passes
    assert game.current_player == "Anna"


def test_draw_one_fitting_card_ends_the_turn():
    game = play(new_game("draw-one"), "R11 | draw R12")
    refused(game.place(C("R13")), ErrorCode.TURN_OVER, "after_drawn_card")


def test_draw_one_deal_offers_next_after_a_card_that_does_not_fit():
    deal = dealt("draw-one", [["R11"], []], draws=["B1"])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    deal.push(DRAW)
    assert deal.legal_moves() == [NEXT]


# ================================================================= draw-continue
def test_draw_continue_plays_on_after_a_fitting_drawn_card():
    game = play(new_game("draw-continue"), "R11 | draw R12")
    assert game.turn_over is None
    ok(game.place(C("R13")))
    ok(game.place(C("Y11")))
    refused(game.draw(), ErrorCode.DRAW_AFTER_PLAY)
    ok(game.next())
    assert game.hands == [19, 18]


def test_classic_does_not_play_on_after_a_drawn_card():
    game = play(new_game("classic"), "R11 | draw R12")
    refused(game.place(C("R13")), ErrorCode.TURN_OVER)


def test_draw_continue_still_requires_drawing_on():
    game = play(new_game("draw-continue"), "R11 | draw")
    refused(game.next(), ErrorCode.MUST_PLAY_OR_DRAW, "draw_more")


def test_draw_continue_deal_offers_the_hand_after_the_drawn_card():
    deal = dealt("draw-continue", [["R11"], ["R13", "B2"]], draws=["R12"])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    assert deal.legal_moves() == [DRAW]  # R13 does not fit yet
    deal.push(DRAW)
    assert deal.legal_moves() == [PLACE[C("R12")]]  # the drawn card first
    deal.push(PLACE[C("R12")])
    assert set(deal.legal_moves()) == {PLACE[C("R13")], NEXT}
    deal.push(PLACE[C("R13")])
    assert deal.game.rows()[RED] == [11, 13]


# ================================================================= free-pass
def test_free_pass_next_with_nothing_done():
    game = play(new_game("free-pass"), "R11 |")
    ok(game.next())
    assert game.current_player == "Anna"
    assert game.hands == [19, 20] and game.stock == 40


def test_free_pass_next_after_one_draw():
    game = play(new_game("free-pass"), "R11 | draw")
    ok(game.next())


def test_classic_has_no_free_pass():
    game = play(new_game("classic"), "R11 |")
    refused(game.next(), ErrorCode.MUST_PLAY_OR_DRAW, "nothing_done")


def test_free_pass_still_limits_draws_and_opens_with_a_card():
    game = new_game("free-pass")
    refused(game.next(), ErrorCode.BAD_EVENT, "opening_first")
    play(game, "R11 | draw draw draw")
    refused(game.draw(), ErrorCode.DRAW_LIMIT)


def test_free_pass_deal_may_hold_back_every_card():
    deal = dealt("free-pass", [["R11"], ["R12"]])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    assert set(deal.legal_moves()) == {PLACE[C("R12")], NEXT}
    deal.push(NEXT)
    assert deal.seat == 0 and C("R12") in deal.hands[1]


# ================================================================= junior
def test_junior_cards_one_to_eleven():
    game = new_game("junior")
    assert len(game.deck) == 44
    assert {c.number for c in game.deck} == set(range(1, 12))
    assert {c.colour for c in game.deck} == set(COLOURS)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_junior_five_cards_each_ones_and_elevens_laid_out(players):
    """Pro Spieler 5 Karten; die 1 und 11 für jede Farbe auslegen."""
    game = new_game("junior", players)
    assert game.hands == [5] * players
    assert game.stock == 44 - 8 - 5 * players
    assert sorted(c.code for c in game.table()) == sorted(f"{c.letter}{n}" for c in COLOURS for n in (1, 11))
    assert game.rows() == {colour: [[1, 1], [11, 11]] for colour in COLOURS}


def test_junior_needs_no_opening_card():
    game = new_game("junior", 3)
    assert game.current_player == "Anna"
    ok(game.draw())  # the first player may draw straight away


@pytest.mark.parametrize("code", ["R2", "R10", "Y2", "B10"])
def test_junior_rows_grow_up_from_one_and_down_from_eleven(code):
    ok(new_game("junior").place(C(code)))


def test_junior_no_skipping():
    """An eine 1 darf also nur eine 2 gelegt werden, an eine 11 nur eine 10."""
    game = new_game("junior")
    verdict = refused(game.place(C("R4")), ErrorCode.SKIPPED_NUMBER)
    assert verdict.message("de") == "Rot 2 und Rot 3 fehlen"
    refused(game.place(C("R9")), ErrorCode.SKIPPED_NUMBER)


def test_junior_wrong_colour():
    """Die grüne 9 darf nicht an die rote 10 angelegt werden."""
    game = play(new_game("junior"), "R10 G10")
    refused(game.place(C("G9"), on=C("R10")), ErrorCode.WRONG_COLOUR)


@pytest.mark.parametrize("code", ["R12", "Y20", "G13", "B15"])
def test_junior_cards_above_eleven_are_not_in_the_deck(code):
    game = new_game("junior")
    verdict = refused(game.place(C(code)), ErrorCode.BAD_EVENT, "not_in_deck")
    assert verdict.message("de") == f"{C(code).name('de')} gehört nicht zu diesem Spiel"


def test_junior_rows_meet():
    game = new_game("junior")
    play(game, "R2 R3 R10 R9 |")
    assert game.rows()[RED] == [[1, 3], [9, 11]]
    play(game, "R8 R4")
    assert game.rows()[RED] == [[1, 4], [8, 11]]


def test_junior_row_complete_when_the_runs_touch():
    game = new_game("junior", 6)  # stock 6, hands 5: lay the red row over several turns
    play(game, "R2 R3 R10 R9 | R4 R8 R5 | R7 R6")
    up, down = game.rows()[RED]
    assert up[0] == 1 and down[1] == 11
    assert up[1] + 1 == down[0]
    assert [c.number for c in game.table() if c.colour is RED] == list(range(1, 12))
    refused(game.place(C("R6")), ErrorCode.ALREADY_PLAYED)


def test_junior_draw_one_then_the_turn_ends_after_placing():
    """Passt sie, musst du sie sofort anlegen. Danach ist dein Zug beendet."""
    game = play(new_game("junior"), "draw")
    refused(game.draw(), ErrorCode.DRAW_LIMIT, "draw_limit_one")
    ok(game.place(C("R2")))
    refused(game.place(C("R3")), ErrorCode.TURN_OVER, "after_drawn_card")
    ok(game.next())
    assert game.current_player == "Ben"


def test_junior_card_that_does_not_fit_passes_the_turn():
    """Passt sie nicht, sagst du dies und der nächste Spieler ist an der Reihe."""
    game = play(new_game("junior"), "draw")
    ok(game.next())
    assert game.current_player == "Ben" and game.hands == [6, 5]


def test_junior_lay_as_many_as_you_like():
    game = play(new_game("junior"), "R2 R3 Y10 Y9")
    assert game.placed == 4 and game.hands == [1, 5]
    ok(game.place(C("G2")))
    assert game.over and game.winner_name == "Anna"


def test_junior_deal():
    safe = lambda c: 4 <= c.number <= 8  # nothing fits at the start
    deal = dealt("junior", [[], ["R2"]], draws=["B5", "Y10"], safe=safe)
    assert deal.opening_card is None and deal.first == 0
    assert all(len(h) == 5 for h in deal.hands) and len(deal.stock) == 26
    assert deal.legal_moves() == [DRAW]  # Anna cannot lay
    deal.push(DRAW)  # B5: does not fit
    assert deal.legal_moves() == [NEXT]  # only one card is drawn
    deal.push(NEXT)
    assert deal.legal_moves() == [PLACE[C("R2")]]  # Ben must lay his R2
    with pytest.raises(IllegalMove):
        deal.push(DRAW)
    deal.push(PLACE[C("R2")])
    deal.push(NEXT)
    deal.push(DRAW)  # Y10 fits
    assert deal.legal_moves() == [PLACE[C("Y10")]]
    deal.push(PLACE[C("Y10")])
    assert deal.legal_moves() == [NEXT]


def test_junior_deal_first_player_is_chosen():
    deal = Deal(PRESETS["junior"], NAMES[:4], random.Random(1), first=2)
    assert deal.first == 2 and deal.seat == 2
    move = deal.legal_moves()[0]
    deal.push(move)
    assert deal.game.started


# ================================================================= three-starts
@pytest.mark.parametrize("code", ["R10", "R11", "R12", "G10", "B12"])
def test_three_starts_a_row_opens_with_ten_eleven_or_twelve(code):
    game = new_game("three-starts")
    ok(game.place(C(code)))
    assert game.rows()[C(code).colour] == [C(code).number] * 2


@pytest.mark.parametrize("code", ["R13", "R9", "Y1", "B20"])
def test_three_starts_thirteen_cannot_open(code):
    game = new_game("three-starts")
    verdict = refused(game.place(C(code)), ErrorCode.ROW_NOT_OPEN)
    assert "Rot 10, Rot 11, Rot 12" in verdict.message("de")


def test_three_starts_later_rows_too():
    game = play(new_game("three-starts"), "R12 |")
    ok(game.place(C("Y10")))
    ok(game.place(C("G12")))
    verdict = refused(game.place(C("B13")), ErrorCode.ROW_NOT_OPEN, "row_not_open")
    assert verdict.message("de") == "Reihe Blau ist noch nicht eröffnet: sie beginnt mit Blau 10, Blau 11 oder Blau 12"
    assert verdict.message("en") == "The Blue row is not open yet: it starts with Blue 10, Blue 11 or Blue 12"


def test_three_starts_row_grows_both_ways_from_its_opener():
    game = play(new_game("three-starts"), "R10 |")
    ok(game.place(C("R9")))
    ok(game.place(C("R11")))
    ok(game.place(C("R12")))
    refused(game.place(C("R14")), ErrorCode.SKIPPED_NUMBER)
    assert game.rows()[RED] == [9, 12]


def test_three_starts_first_player_may_draw_instead_of_opening():
    """The player left of the dealer begins, and draws if they cannot open."""
    game = new_game("three-starts")
    assert game.current_player == "Anna"
    play(game, "draw draw")
    refused(game.next(), ErrorCode.MUST_PLAY_OR_DRAW)
    play(game, "draw |")
    assert game.current_player == "Ben" and game.hands == [23, 20]


def test_three_starts_deal_opens_with_whatever_fits():
    deal = dealt("three-starts", [["R12", "Y11"], []])
    assert deal.opening_card is None and deal.first == 0
    assert set(deal.legal_moves()) == {PLACE[C("R12")], PLACE[C("Y11")]}


# ================================================================= false-start
def test_false_start_ones_and_twenties_lie_out():
    game = new_game("false-start")
    assert sorted(c.code for c in game.table()) == sorted(f"{c.letter}{n}" for c in COLOURS for n in (1, 20))
    assert game.rows() == {colour: [[1, 1], [20, 20]] for colour in COLOURS}
    assert game.hands == [20, 20] and game.stock == 80 - 8 - 40
    assert game.current_player == "Anna"


@pytest.mark.parametrize("code", ["R2", "R19", "B2", "G19"])
def test_false_start_rows_grow_up_from_one_and_down_from_twenty(code):
    ok(new_game("false-start").place(C(code)))


def test_false_start_eleven_is_an_ordinary_card():
    """Die 11 ist eine normale Karte und kann erst gelegt werden, wenn die 10 oder die 12 ausliegt."""
    game = new_game("false-start", 3)
    refused(game.place(C("R11")), ErrorCode.SKIPPED_NUMBER)
    refused(game.place(C("Y11")), ErrorCode.SKIPPED_NUMBER)
    play(game, "R19 R18 R17 R16 R15 R14 R13")
    refused(game.place(C("R11")), ErrorCode.SKIPPED_NUMBER)
    ok(game.place(C("R12")))
    ok(game.place(C("R11")))  # now next to R12
    assert game.rows()[RED] == [[1, 1], [11, 20]]


def test_false_start_no_opening_card_needed():
    game = new_game("false-start")
    ok(game.draw())  # the first player may draw
    ok(game.place(C("R2")))  # a fitting drawn card ends the turn as in classic
    refused(game.place(C("R3")), ErrorCode.TURN_OVER, "after_drawn_card")


def test_false_start_first_card_does_not_end_the_turn():
    game = new_game("false-start")
    ok(game.place(C("R2")))
    ok(game.place(C("R3")))
    assert game.turn_over is None


# ================================================================= any-start
def test_any_start_first_card_may_be_anything():
    game = new_game("any-start", 3)
    refused(game.draw(), ErrorCode.BAD_EVENT, "opening_first")
    ok(game.place(C("G5"), player="Cem"))
    assert game.current_player == "Cem"
    refused(game.place(C("G4")), ErrorCode.TURN_OVER, "after_opening")  # laid alone
    assert game.rows()[GREEN] == [5, 5]


def test_any_start_later_rows_only_with_that_number():
    game = play(new_game("any-start"), "G5 |")
    verdict = refused(game.place(C("R11")), ErrorCode.ROW_NOT_OPEN, "row_not_open")
    assert verdict.message("de") == "Reihe Rot ist noch nicht eröffnet: sie beginnt mit Rot 5"
    refused(game.place(C("Y6")), ErrorCode.ROW_NOT_OPEN)
    ok(game.place(C("R5")))
    ok(game.place(C("Y5")))
    ok(game.place(C("G4")))
    ok(game.place(C("G6")))
    assert game.rows() == {RED: [5, 5], YELLOW: [5, 5], GREEN: [4, 6], BLUE: None}


@pytest.mark.parametrize("code", ["R1", "B20", "Y11"])
def test_any_start_any_number(code):
    game = play(new_game("any-start"), f"{code} |")
    number = C(code).number
    for colour in COLOURS:
        if colour is not C(code).colour:
            assert game.fits(Card(colour, number))
            other = 10 if number != 10 else 12
            assert not game.fits(Card(colour, other))


def test_any_start_deal_chooses_the_start_player_by_lot():
    starts = set()
    for seed in range(30):
        deal = Deal(PRESETS["any-start"], NAMES[:3], random.Random(seed))
        assert deal.opening_card is None and deal.redeals == 0
        assert set(deal.legal_moves()) == {PLACE[c] for c in deal.hands[deal.first]}
        starts.add(deal.first)
    assert starts == {0, 1, 2}


# ================================================================= sixty
def test_sixty_two_players_sixty_cards_without_blue():
    game = new_game("sixty")
    assert len(game.deck) == 60
    assert {c.colour for c in game.deck} == {RED, YELLOW, GREEN}
    assert game.hands == [20, 20] and game.stock == 20
    assert set(game.rows()) == {RED, YELLOW, GREEN}
    refused(game.place(C("B11")), ErrorCode.BAD_EVENT, "not_in_deck")
    verdict = refused(game.place(C("R10")), ErrorCode.ROW_NOT_OPEN)
    assert verdict.message("de") == "Noch keine Reihe offen: das Spiel beginnt mit Rot 11, Gelb 11 oder Grün 11"


@pytest.mark.parametrize("players", [3, 4, 6])
def test_sixty_is_for_two_players_only(players):
    with pytest.raises(PresetError, match="exactly 2"):
        new_game("sixty", players)


@pytest.mark.parametrize("without, gone", [("R", RED), ("rot", RED), ("Yellow", YELLOW), ("G", GREEN), ("B", BLUE)])
def test_sixty_without_another_colour(without, gone):
    game = new_game("sixty", without=without)
    assert len(game.deck) == 60
    assert {c.colour for c in game.deck} == set(COLOURS) - {gone}
    assert game.stock == 20
    refused(game.place(Card(gone, 11)), ErrorCode.BAD_EVENT, "not_in_deck")


def test_sixty_without_red_opens_with_yellow():
    preset = PRESETS["sixty"].with_options({"without": "R"})
    for seed in range(20):
        deal = Deal(preset, NAMES[:2], random.Random(seed))
        held = [c for c in (Card(YELLOW, 11), Card(GREEN, 11), Card(BLUE, 11)) if any(c in h for h in deal.hands)]
        assert deal.opening_card is held[0]
        assert all(c.colour is not RED for h in deal.hands for c in h)


@pytest.mark.parametrize(
    "name, options",
    [("sixty", {"without": "X"}), ("sixty", {"without": None}), ("sixty", {"colours": "RYG"}),
     ("classic", {"without": "B"}), ("junior", {"draw_limit": 3})],
)
def test_bad_preset_options(name, options):
    with pytest.raises(PresetError):
        PRESETS[name].with_options(options)


def test_no_options_is_the_preset_itself():
    assert PRESETS["classic"].with_options({}) is PRESETS["classic"]
    assert PRESETS["sixty"].with_options({"without": "B"}) == PRESETS["sixty"]


# ================================================================= rows() shape
def test_rows_classic_shape():
    game = play(new_game("classic"), "R11 | R10 R9 R12 Y11")
    assert game.rows() == {RED: [9, 12], YELLOW: [11, 11], GREEN: None, BLUE: None}


def test_rows_converging_shape():
    game = play(new_game("false-start"), "R2 R3 R19 Y19")
    rows = game.rows()
    assert rows[RED] == [[1, 3], [19, 20]]
    assert rows[YELLOW] == [[1, 1], [19, 20]]
    assert rows[GREEN] == [[1, 1], [20, 20]]


# ================================================================= every preset plays to the end
@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_every_preset_deal_plays_to_a_winner(name):
    preset = PRESETS[name]
    rng = random.Random(7)
    players = 2 if name == "sixty" else 3
    deal = Deal(preset, NAMES[:players], rng)
    for _ in range(5000):
        if deal.game.over:
            break
        moves = deal.legal_moves()
        places = [m for m in moves if isinstance(m, Place)]
        deal.push(places[0] if places else moves[0])
    assert deal.game.over
    winner = deal.game.winner
    assert not deal.hands[winner]
    assert all(h for seat, h in enumerate(deal.hands) if seat != winner)
    for player, points in deal.penalties().items():
        if player != deal.game.winner_name:
            ok(deal.game.penalty(player, points))
    assert deal.game.penalties_complete


# ================================================================= across presets (README: the turn ends ...)
OPENS_WITH_A_CARD = ["classic", "draw-one", "draw-continue", "free-pass", "any-start", "sixty"]
NO_OPENING_CARD = ["junior", "three-starts", "false-start"]


@pytest.mark.parametrize("name", OPENS_WITH_A_CARD)
def test_first_turn_event_must_be_the_opening_card(name):
    game = new_game(name)
    refused(game.draw(), ErrorCode.BAD_EVENT, "opening_first")
    refused(game.next(), ErrorCode.BAD_EVENT, "opening_first")
    assert game.current_player is None


@pytest.mark.parametrize("name", NO_OPENING_CARD)
def test_first_player_may_draw_when_no_opening_card_is_needed(name):
    game = new_game(name)
    assert game.current_player == "Anna"
    ok(game.draw())
    assert game.hands[0] == PRESETS[name].hand_size(2) + 1


@pytest.mark.parametrize("name", OPENS_WITH_A_CARD + ["three-starts"])
def test_the_opening_card_is_laid_alone(name):
    game = play(new_game(name), "R11")
    refused(game.place(C("R12")), ErrorCode.TURN_OVER, "after_opening")
    ok(game.next())
    ok(game.place(C("R12")))


@pytest.mark.parametrize(
    "name, script, further",
    [
        ("classic", "R11 | draw R12", "R13"),
        ("draw-one", "R11 | draw R12", "R13"),
        ("free-pass", "R11 | draw R12", "R13"),
        ("sixty", "R11 | draw R12", "R13"),
        ("any-start", "R11 | draw R12", "R13"),
        ("three-starts", "R11 | draw R12", "R13"),
        ("false-start", "draw R2", "R3"),
        ("junior", "draw R2", "R3"),
    ],
)
def test_a_fitting_drawn_card_ends_the_turn(name, script, further):
    game = play(new_game(name), script)
    refused(game.place(C(further)), ErrorCode.TURN_OVER, "after_drawn_card")
    ok(game.next())


def test_only_draw_continue_plays_on_after_a_drawn_card():
    assert [p.name for p in PRESETS.values() if not p.drawn_card_ends_turn] == ["draw-continue"]
