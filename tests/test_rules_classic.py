"""The classic game, one test (or a small group) per rule sentence.

Sources: the Ravensburger manual, page 2 of ``shared/rules/000_…`` (German), and the
teaching profile ``002_…`` (English). The referee (:class:`Game`) only counts cards;
the full-information :class:`Deal` also enforces what only a player can know.
"""

from __future__ import annotations

import random

import pytest

from companion.cards import DECK, Card, Colour
from companion.rules import DRAW, NEXT, PLACE, PRESETS, ErrorCode, Game, PresetError
from companion.rules.deal import Deal, IllegalMove
from helpers import (
    BLUE, GREEN, NAMES, RED, YELLOW, C, ScriptedRng, arrange, dealt, empty_stock, new_game, ok, play, refused, run, won,
)

CLASSIC = PRESETS["classic"]


# ----------------------------------------------------------------- helpers
def opened(players: int = 2, script: str = "R11 |") -> Game:
    """A game in which Anna opened with the red 11 and passed the turn on."""
    return play(new_game(players=players), script)


# ================================================================= setup
@pytest.mark.parametrize(
    "players, hand, stock",
    [(2, 20, 40), (3, 20, 20), (4, 15, 20), (5, 12, 20), (6, 10, 20)],
)
def test_deal_sizes_and_stock(players, hand, stock):
    """Mischt alle 80 Karten gut und verteilt an jeden Spieler: 20/20/15/12/10; the rest is the stock."""
    game = new_game(players=players)
    assert game.hands == [hand] * players
    assert game.hand_sizes() == dict.fromkeys(NAMES[:players], hand)
    assert game.stock == stock
    assert len(game.deck) == 80
    assert CLASSIC.hand_size(players) == hand
    assert hand * players + stock == 80


@pytest.mark.parametrize("players", [0, 1, 7, 8])
def test_two_to_six_players(players):
    with pytest.raises(PresetError, match="2 to 6"):
        Game(CLASSIC, [f"P{i}" for i in range(players)])


def test_table_is_empty_before_the_first_card():
    game = new_game(players=4)
    assert game.table() == []
    assert game.rows() == {RED: None, YELLOW: None, GREEN: None, BLUE: None}
    assert game.current_player is None  # whoever holds the red 11 will begin
    assert not game.over and game.winner_name is None


# ================================================================= opening
def test_game_starts_with_the_opening_card_not_a_draw_or_next():
    """Der Spieler, der den roten 11er auf der Hand hat, beginnt das Spiel."""
    game = new_game(players=3)
    refused(game.draw(), ErrorCode.BAD_EVENT, "opening_first")
    refused(game.next(), ErrorCode.BAD_EVENT, "opening_first")
    assert game.table() == [] and game.stock == 20


@pytest.mark.parametrize("code", ["R11", "Y11", "G11", "B11"])
def test_an_eleven_opens(code):
    """The referee cannot see hands: any 11 may be the opening card (red 11 if someone has it)."""
    game = new_game(players=3)
    ok(game.place(C(code)))
    assert game.table() == [C(code)]
    assert game.rows()[C(code).colour] == [11, 11]


@pytest.mark.parametrize("code", ["R10", "R12", "Y1", "B20"])
def test_only_an_eleven_opens(code):
    game = new_game(players=3)
    verdict = refused(game.place(C(code)), ErrorCode.ROW_NOT_OPEN, "row_not_open_first")
    assert verdict.message("de") == "Noch keine Reihe offen: das Spiel beginnt mit Rot 11, Gelb 11, Grün 11 oder Blau 11"
    assert verdict.message("en") == "No row is open yet: the game starts with Red 11, Yellow 11, Green 11 or Blue 11"
    assert game.table() == [] and game.current_player is None


def test_the_opener_is_whoever_lays_it():
    """Er legt ihn offen in die Tischmitte: the opening card's player begins."""
    game = new_game(players=4)
    ok(game.place(C("R11"), player="Cem"))
    assert game.current_player == "Cem"
    assert game.hands == [15, 15, 14, 15]


def test_without_a_name_the_first_listed_player_opens():
    game = new_game(players=3)
    ok(game.place(C("R11")))
    assert game.current_player == "Anna"
    assert game.hands == [19, 20, 20]


def test_opener_lays_the_eleven_alone():
    """Wurde der erste 11er ausgelegt, ist sofort der nächste Spieler an der Reihe."""
    game = new_game(players=3)
    ok(game.place(C("R11"), player="Ben"))
    for further in ("R10", "R12", "Y11"):
        verdict = refused(game.place(C(further)), ErrorCode.TURN_OVER, "after_opening")
        assert verdict.message("de") == "Die erste Karte liegt allein: Ben ist fertig, weiter mit NEXT"
        assert verdict.message("en") == "The opening card is laid alone: Ben is done, press NEXT"
    refused(game.draw(), ErrorCode.DRAW_AFTER_PLAY)
    assert game.table() == [C("R11")] and game.hands == [20, 19, 20]
    ok(game.next())
    assert game.current_player == "Cem"


def test_turn_passes_clockwise():
    """Gespielt wird reihum im Uhrzeigersinn (seat order of the start)."""
    game = new_game(players=3)
    ok(game.place(C("R11"), player="Ben"))
    order = []
    for _ in range(5):
        ok(game.next())
        order.append(game.current_player)
        play(game, "draw draw draw")
    assert order == ["Cem", "Anna", "Ben", "Cem", "Anna"]


def test_turn_passes_only_on_next():
    game = opened(3)
    assert game.current_player == "Ben"
    play(game, "R10 R12 R13")
    assert game.current_player == "Ben"
    ok(game.next())
    assert game.current_player == "Cem"


# ================================================================= laying cards
def test_red_eleven_takes_red_ten_and_red_twelve():
    """An die rote 11 dürfen nur die rote 10 und die rote 12 angelegt werden."""
    game = opened()
    ok(game.place(C("R10")))
    ok(game.place(C("R12")))
    assert game.rows()[RED] == [10, 12]


@pytest.mark.parametrize("code", ["Y10", "Y12", "G1", "B20"])
def test_new_rows_open_only_with_their_eleven(code):
    """Neue Reihen dürfen nur mit einem 11er begonnen werden."""
    game = opened()
    card = C(code)
    verdict = refused(game.place(card), ErrorCode.ROW_NOT_OPEN, "row_not_open")
    label_de, label_en = card.colour.label("de"), card.colour.label("en")
    assert verdict.message("de") == f"Reihe {label_de} ist noch nicht eröffnet: sie beginnt mit {label_de} 11"
    assert verdict.message("en") == f"The {label_en} row is not open yet: it starts with {label_en} 11"


def test_green_nine_is_not_laid_at_red_ten():
    """Die grüne 9 darf nicht an die rote 10 angelegt werden (only one colour per row)."""
    game = play(opened(), "R10 G11 G10")
    verdict = refused(game.place(C("G9"), on=C("R10")), ErrorCode.WRONG_COLOUR)
    assert verdict.message("de") == "Grün 9 liegt auf Rot 10: falsche Farbe"
    ok(game.place(C("G9"), on=C("G10")))


def test_red_fifteen_is_not_laid_at_red_twelve():
    """Die rote 15 darf nicht an die rote 12 angelegt werden, da auf die 12 die 13 folgen muss."""
    game = play(opened(), "R12")
    verdict = refused(game.place(C("R15")), ErrorCode.SKIPPED_NUMBER, "missing_many")
    assert verdict.message("de") == "Rot 13 und Rot 14 fehlen"
    assert verdict.message("en") == "Red 13 and Red 14 are missing"


@pytest.mark.parametrize(
    "code, german, english",
    [
        ("R13", "Rot 12 fehlt", "Red 12 is missing"),
        ("R14", "Rot 12 und Rot 13 fehlen", "Red 12 and Red 13 are missing"),
        ("R15", "Rot 12, Rot 13 und Rot 14 fehlen", "Red 12, Red 13 and Red 14 are missing"),
        ("R9", "Rot 10 fehlt", "Red 10 is missing"),
        ("R1", "Rot 2, Rot 3, Rot 4, Rot 5, Rot 6, Rot 7, Rot 8, Rot 9 und Rot 10 fehlen", None),
        ("R20", None, "Red 12, Red 13, Red 14, Red 15, Red 16, Red 17, Red 18 and Red 19 are missing"),
    ],
)
def test_no_number_may_be_skipped(code, german, english):
    """Es dürfen keine Zahlen ausgelassen werden: the message names the missing cards."""
    game = opened()
    verdict = refused(game.place(C(code)), ErrorCode.SKIPPED_NUMBER)
    if german:
        assert verdict.message("de") == german
    if english:
        assert verdict.message("en") == english
    assert game.table() == [C("R11")]


def test_rows_grow_down_to_one_and_up_to_twenty():
    """Absteigend von 10 bis 1, aufsteigend von 12 bis 20: at most 1 to 20."""
    game = opened(3)
    play(game, run("R", range(10, 0, -1)) + " " + run("R", range(12, 21)))
    assert game.rows()[RED] == [1, 20]
    assert [c.number for c in game.table()] == list(range(1, 21))
    assert game.hands[1] == 20 - 19
    assert not any(game.fits(Card(RED, n)) for n in range(1, 21))


def test_row_ends_grow_one_by_one():
    game = play(opened(), "R12 R13 R14")
    verdict = refused(game.place(C("R16")), ErrorCode.SKIPPED_NUMBER, "missing_one")
    assert verdict.message("de") == "Rot 15 fehlt"
    ok(game.place(C("R15")))
    ok(game.place(C("R16")))
    assert game.rows()[RED] == [11, 16]


def test_several_cards_per_turn_across_rows():
    """Beliebig viele Karten an beliebige (auch unterschiedliche) Zahlenreihen, also new 11s."""
    game = opened(3)
    play(game, "R10 Y11 R12 Y12 G11 Y10 B11")
    assert game.placed == 7
    assert game.hands == [19, 13, 20]
    assert game.current_player == "Ben"
    assert game.rows() == {RED: [10, 12], YELLOW: [10, 12], GREEN: [11, 11], BLUE: [11, 11]}


def test_each_card_must_be_legal_when_it_is_placed():
    """Each additional card must be legal after the previous one (002)."""
    game = opened()
    refused(game.place(C("R13")), ErrorCode.SKIPPED_NUMBER)
    ok(game.place(C("R12")))
    ok(game.place(C("R13")))  # now it fits
    assert game.rows()[RED] == [11, 13]


def test_other_elevens_are_opened_in_a_later_turn():
    game = opened(3)
    play(game, "Y11 |")  # Ben opens yellow
    play(game, "G11 Y12 |")  # Cem opens green
    play(game, "B11")  # Anna opens blue
    assert game.rows() == {RED: [11, 11], YELLOW: [11, 12], GREEN: [11, 11], BLUE: [11, 11]}


def test_worked_example_from_the_teaching_profile():
    """Only blue 11 is open; hand B10, B12, R9: play both blues, keep the red (unopened)."""
    game = play(new_game(players=2), "B11 |")
    ok(game.place(C("B10")))
    ok(game.place(C("B12")))
    refused(game.place(C("R9")), ErrorCode.ROW_NOT_OPEN)
    assert game.rows()[BLUE] == [10, 12]
    assert game.hands[1] == 18


def test_a_card_on_the_table_cannot_be_laid_again():
    game = play(opened(), "R10 |")
    refused(game.place(C("R10")), ErrorCode.ALREADY_PLAYED)
    refused(game.place(C("R11")), ErrorCode.ALREADY_PLAYED)


# ================================================================= drawing
def test_draw_one_card_at_a_time_up_to_three():
    """Bis zu 3 Karten vom Nachziehstapel ziehen, one at a time."""
    game = opened()
    for n in (1, 2, 3):
        ok(game.draw())
        assert game.drawn == n
        assert game.stock == 40 - n
        assert game.hands == [19, 20 + n]
    verdict = refused(game.draw(), ErrorCode.DRAW_LIMIT, "draw_limit")
    assert verdict.message("de") == "Höchstens 3 Karten ziehen"
    assert verdict.message("en") == "Draw at most 3 cards"
    assert game.stock == 37 and game.hands == [19, 23]


@pytest.mark.parametrize("draws", [1, 2, 3])
def test_a_fitting_drawn_card_is_placed_and_ends_the_turn(draws):
    """Passt sie, muss er sie sofort anlegen. Sein Zug ist dann beendet."""
    game = opened()
    for _ in range(draws):
        ok(game.draw())
    ok(game.place(C("R12")))
    verdict = refused(game.place(C("R13")), ErrorCode.TURN_OVER, "after_drawn_card")
    assert verdict.message("de") == "Nach der gezogenen Karte ist der Zug vorbei: weiter mit NEXT"
    refused(game.place(C("Y11")), ErrorCode.TURN_OVER)
    refused(game.draw(), ErrorCode.DRAW_AFTER_PLAY)
    ok(game.next())
    assert game.current_player == "Anna"
    ok(game.place(C("R13")))  # the next player may go on


def test_no_drawing_after_placing():
    """Drawing is for a player who cannot lay: no draw once a card was laid this turn."""
    game = play(opened(), "R12")
    verdict = refused(game.draw(), ErrorCode.DRAW_AFTER_PLAY)
    assert verdict.message("de") == "Nach dem Anlegen wird nicht mehr gezogen"
    assert game.stock == 40


def test_next_without_placing_or_drawing_is_refused():
    """Er muss entweder mindestens eine Karte anlegen oder ... ziehen."""
    game = opened()
    verdict = refused(game.next(), ErrorCode.MUST_PLAY_OR_DRAW, "nothing_done")
    assert verdict.message("de") == "Ben muss erst anlegen oder ziehen"
    assert verdict.message("en") == "Ben must lay or draw a card first"
    assert game.current_player == "Ben"


@pytest.mark.parametrize("draws", [1, 2])
def test_a_card_that_does_not_fit_means_drawing_again(draws):
    """Passt sie nicht, muss er eine weitere Karte ziehen ... bis maximal 3."""
    game = opened()
    for _ in range(draws):
        ok(game.draw())
    verdict = refused(game.next(), ErrorCode.MUST_PLAY_OR_DRAW, "draw_more")
    assert verdict.message("de") == f"Ben muss weiter ziehen ({draws} von 3 gezogen)"
    assert verdict.message("en") == f"Ben must draw again ({draws} of 3 drawn)"
    assert game.current_player == "Ben"


def test_after_three_draws_the_turn_passes():
    """Danach ist der nächste Spieler an der Reihe."""
    game = play(opened(), "draw draw draw")
    ok(game.next())
    assert game.current_player == "Anna"
    assert game.placed == game.drawn == 0 and game.turn_over is None
    assert game.hands == [19, 23]


def test_placing_any_card_allows_next():
    game = play(opened(), "R10")
    ok(game.next())
    assert game.current_player == "Anna"


def test_empty_stock_draw_is_refused_and_the_player_passes():
    """Sollte der Nachziehstapel aufgebraucht sein ... sagt er dies, und der nächste ist dran."""
    game = empty_stock()
    verdict = refused(game.draw(), ErrorCode.STOCK_EMPTY)
    assert verdict.message("de") == "Der Nachziehstapel ist leer"
    assert game.stock == 0
    ok(game.next())
    assert game.current_player == "Ben"


def test_stock_running_out_mid_turn_ends_the_drawing():
    game = new_game(players=6)
    play(game, "R11 |")
    # draw 18 of the 20 stock cards over six turns
    for _ in range(6):
        play(game, "draw draw draw |")
    play(game, "draw draw")  # the last two cards
    assert game.stock == 0 and game.drawn == 2
    refused(game.draw(), ErrorCode.STOCK_EMPTY)
    ok(game.next())  # two draws only, but nothing is left to draw


# ================================================================= the end
def test_first_player_to_lay_the_last_card_wins_at_once():
    """Das Spiel endet, sobald ein Spieler seine letzte Handkarte angelegt hat."""
    game = won(ben_keeps=1)
    assert game.over
    assert game.winner_name == "Anna" and game.winner == 0
    assert game.hands == [0, 1]
    for verdict in (game.place(C("Y20")), game.draw(), game.next(), game.next("Ben")):
        refused(verdict, ErrorCode.GAME_OVER)
        assert verdict.message("de") == "Das Spiel ist vorbei: Anna hat gewonnen"
        assert verdict.message("en") == "The game is over: Anna won"
    assert game.hands == [0, 1] and game.over


def test_no_win_while_a_card_is_left():
    game = won(ben_keeps=1)
    ok(game.undo())
    assert not game.over and game.hands == [1, 1]


def test_penalty_is_the_sum_of_numbers_left():
    """Hat er z.B. eine 19 und eine 2 übrig, erhält er 21 Punkte; the winner gets 0."""
    game = won(ben_keeps=2)
    assert not game.penalties_complete
    ok(game.penalty("Ben", 21))
    assert game.penalties == {"Ben": 21}
    assert game.penalties_complete
    ok(game.penalty("Anna", 0))
    assert game.penalties == {"Ben": 21, "Anna": 0}


@pytest.mark.parametrize(
    "keeps, player, points, reason",
    [
        (2, "Ben", -1, "penalty_negative"),
        (2, "Anna", 5, "penalty_winner"),
        (2, "Zoe", 5, "penalty_unknown"),
        (2, "Ben", 41, "penalty_range"),  # two cards are worth at most 20 + 20
        (2, "Ben", 1, "penalty_range"),  # and at least 1 + 1
        (1, "Ben", 0, "penalty_range"),
        (1, "Ben", 21, "penalty_range"),
        (1, "Ben", 11, "penalty_impossible"),  # all four 11s are on the table
    ],
)
def test_bad_penalties(keeps, player, points, reason):
    game = won(ben_keeps=keeps)
    refused(game.penalty(player, points), ErrorCode.BAD_PENALTY, reason)
    assert game.penalties == {}


def test_penalty_twice_and_before_the_end():
    game = opened()
    refused(game.penalty("Ben", 10), ErrorCode.BAD_PENALTY, "penalty_early")
    game = won(ben_keeps=1)
    ok(game.penalty("Ben", 20))
    verdict = refused(game.penalty("Ben", 19), ErrorCode.BAD_PENALTY, "penalty_twice")
    assert verdict.message("de") == "Ben hat schon 20 Punkte (zum Ändern erst zurücknehmen)"
    assert game.penalties == {"Ben": 20}
    ok(game.undo())
    ok(game.penalty("Ben", 19))
    assert game.penalties == {"Ben": 19}


def test_penalty_range_message():
    game = won(ben_keeps=1)
    verdict = refused(game.penalty("Ben", 30), ErrorCode.BAD_PENALTY, "penalty_range")
    assert verdict.message("de") == "Ben hat 1 Karten: das sind 1 bis 20 Punkte, nicht 30"


# ================================================================= the full-information deal
def test_arrange_deals_what_it_says():
    deal = dealt(CLASSIC, [["R11"], ["R10", "Y3"]], draws=["G5", "B6"])
    assert C("R11") in deal.hands[0]
    assert {C("R10"), C("Y3")} <= set(deal.hands[1])
    assert deal.stock[-1] is C("G5") and deal.stock[-2] is C("B6")
    assert all(len(h) == 20 for h in deal.hands) and len(deal.stock) == 40


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_deal_red_eleven_holder_opens(seat):
    hands = [[], [], []]
    hands[seat] = ["R11"]
    deal = dealt(CLASSIC, hands, players=3, draws=["Y11", "G11", "B11"])
    assert deal.opening_card is C("R11")
    assert deal.first == seat and deal.seat == seat
    assert deal.redeals == 0
    assert deal.legal_moves() == [PLACE[C("R11")]]


def test_deal_red_eleven_holder_opens_even_if_others_hold_other_elevens():
    deal = dealt(CLASSIC, [["Y11", "G11"], ["B11"], ["R11"]], players=3)
    assert deal.opening_card is C("R11") and deal.first == 2
    with pytest.raises(IllegalMove):
        deal.push(PLACE[C("Y11")])
    with pytest.raises(IllegalMove):
        deal.push(DRAW)
    assert not deal.game.started


@pytest.mark.parametrize(
    "in_hands, in_stock, opener, seat",
    [
        ({1: ["Y11", "B11"], 0: ["G11"]}, ["R11"], "Y11", 1),
        ({0: ["B11"], 2: ["G11"]}, ["R11", "Y11"], "G11", 2),
        ({1: ["B11"]}, ["R11", "Y11", "G11"], "B11", 1),
    ],
)
def test_deal_without_red_eleven_yellow_green_blue_open_in_that_order(in_hands, in_stock, opener, seat):
    """Hat niemand den roten 11er ... Reihenfolge Gelb, Grün, Blau."""
    hands = [in_hands.get(s, []) for s in range(3)]
    deal = dealt(CLASSIC, hands, players=3, draws=in_stock)
    assert deal.opening_card is C(opener)
    assert deal.first == seat
    assert deal.legal_moves() == [PLACE[C(opener)]]


def test_deal_redeals_when_no_eleven_is_dealt():
    """Hat niemand einen 11er auf der Hand, müssen die Karten neu gemischt und verteilt werden."""
    no_eleven = arrange(CLASSIC, 2, [[], []], draws=["R11", "Y11", "G11", "B11"])
    with_eleven = arrange(CLASSIC, 2, [[], ["G11"]], draws=["R11", "Y11", "B11"])
    rng = ScriptedRng(no_eleven, with_eleven)
    deal = Deal(CLASSIC, NAMES[:2], rng)
    assert rng.shuffles == 2
    assert deal.redeals == 1
    assert deal.opening_card is C("G11") and deal.first == 1
    assert C("G11") in deal.hands[1]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_with_real_shuffles(players):
    """Over many seeds: sizes, one place per card, and the red-yellow-green-blue opener rule."""
    size = CLASSIC.hand_size(players)
    for seed in range(60):
        deal = Deal(CLASSIC, NAMES[:players], random.Random(seed))
        assert [len(h) for h in deal.hands] == [size] * players
        assert len(deal.stock) == 80 - size * players
        everything = [c for h in deal.hands for c in h] + deal.stock
        assert sorted(everything) == sorted(DECK)
        holders = {c: seat for seat, h in enumerate(deal.hands) for c in h}
        expected = next(Card(colour, 11) for colour in Colour if Card(colour, 11) in holders)
        assert deal.opening_card is expected
        assert deal.first == holders[expected]


def test_deal_redeals_with_real_shuffles():
    """With two players 40 cards stay in the stock: some seeds deal no 11 at all."""
    seen = 0
    for seed in range(300):
        deal = Deal(CLASSIC, NAMES[:2], random.Random(seed))
        if deal.redeals:
            seen += 1
            assert any(Card(colour, 11) in hand for hand in deal.hands for colour in Colour)
    assert seen > 0


def test_deal_opener_lays_alone_then_next_player():
    deal = dealt(CLASSIC, [[], ["R11", "R10", "R12"], []], players=3)
    deal.push(PLACE[C("R11")])
    assert deal.game.current_player == "Ben"
    assert deal.legal_moves() == [NEXT]
    with pytest.raises(IllegalMove):
        deal.push(PLACE[C("R10")])
    deal.push(NEXT)
    assert deal.seat == 2 and deal.game.current_player == "Cem"


def test_deal_must_place_a_card_if_able():
    """Jedoch muss jeder Spieler mindestens eine Karte ausspielen, wenn er kann."""
    deal = dealt(CLASSIC, [["R11"], ["R12", "B3"]])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    assert set(deal.legal_moves()) == {PLACE[C("R12")]}
    before = (deal.game.stock, list(deal.game.hands), set(deal.hand))
    with pytest.raises(IllegalMove):
        deal.push(DRAW)
    with pytest.raises(IllegalMove):
        deal.push(NEXT)
    with pytest.raises(IllegalMove):
        deal.push(PLACE[C("B3")])
    assert (deal.game.stock, list(deal.game.hands), set(deal.hand)) == before
    deal.push(PLACE[C("R12")])
    assert NEXT in deal.legal_moves()  # having laid one, holding the rest back is fine


def test_deal_an_unopened_eleven_counts_as_a_fitting_card():
    deal = dealt(CLASSIC, [["R11"], ["Y11"]])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    assert deal.legal_moves() == [PLACE[C("Y11")]]
    with pytest.raises(IllegalMove):
        deal.push(DRAW)


def test_deal_fitting_drawn_card_must_be_placed_at_once():
    """Passt sie, muss er sie sofort anlegen. Sein Zug ist dann beendet."""
    deal = dealt(CLASSIC, [["R11"], []], draws=["R12"])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    assert deal.legal_moves() == [DRAW]  # Ben cannot lay
    deal.push(DRAW)
    assert deal.last_drawn is C("R12") and C("R12") in deal.hand
    assert deal.legal_moves() == [PLACE[C("R12")]]
    for move in (NEXT, DRAW):
        with pytest.raises(IllegalMove):
            deal.push(move)
    deal.push(PLACE[C("R12")])
    assert deal.legal_moves() == [NEXT]
    assert deal.game.turn_over == "after_drawn_card"


def test_deal_draws_until_a_card_fits_at_most_three():
    deal = dealt(CLASSIC, [["R11"], []], draws=["B1", "Y2", "R12"])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    deal.push(DRAW)
    assert deal.legal_moves() == [DRAW]  # B1 does not fit: draw again, no passing
    deal.push(DRAW)
    assert deal.legal_moves() == [DRAW]
    deal.push(DRAW)
    assert deal.legal_moves() == [PLACE[C("R12")]]  # the third card fits


def test_deal_three_draws_that_do_not_fit_end_the_turn():
    deal = dealt(CLASSIC, [["R11"], []], draws=["B1", "Y2", "G3"])
    deal.push(PLACE[C("R11")])
    deal.push(NEXT)
    for _ in range(3):
        deal.push(DRAW)
    assert deal.legal_moves() == [NEXT]
    deal.push(NEXT)
    assert deal.seat == 0
    assert len(deal.hands[1]) == 23


def test_deal_penalties_are_the_sum_of_each_hand():
    deal = dealt(CLASSIC, [["R11"], []])
    penalties = deal.penalties()
    assert penalties == {name: sum(c.number for c in hand) for name, hand in zip(NAMES, deal.hands)}


_REPLAY = """
import sys
junk = [object() for _ in range(int(sys.argv[1]))]  # a different memory layout, nothing else
import random
from companion.rules import PRESETS
from companion.rules.deal import Deal
deal = Deal(PRESETS["classic"], ["Anna", "Ben", "Cem"], random.Random(5))
choose = random.Random(1).choice
moves = []
while not deal.game.over:
    move = choose(deal.legal_moves())
    deal.push(move)
    moves.append(move.card.code if hasattr(move, "card") else move.kind)
print(" ".join(moves))
"""


def test_deal_same_seed_same_game_in_every_process():
    """The same seeds give the same game, whatever else the process allocated first."""
    import subprocess
    import sys

    runs = [
        subprocess.Popen([sys.executable, "-c", _REPLAY, str(n)], stdout=subprocess.PIPE, text=True)
        for n in (0, 1, 7, 100, 1000, 5000, 33333, 77777)
    ]
    outputs = {run.communicate(timeout=60)[0] for run in runs}
    assert all(run.returncode == 0 for run in runs)
    assert len(outputs) == 1
