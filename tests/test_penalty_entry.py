"""Penalty points entered with the buttons once a game is over: DRAW +1, DRAW held +10,
BACK -1, NEXT enters; the referee refuses what the player's cards cannot be worth, and
the screen says so."""

from __future__ import annotations

import random

import pytest

from companion.device.display import Screen, open_display
from companion.device.feedback import Feedback
from companion.loop import RefereeLoop
from companion.rules import Penalty, Start, get_preset
from companion.sim.simulate import make_bots, play_game
from companion.ui import Panel, screens
from table_feed import Feed

PLAYERS = ("Anna", "Ben", "Cem")


@pytest.fixture
def ended(dealt):
    """A loop whose game the bots have played to its end; the true penalties."""
    _, record = dealt
    display = open_display("dummy")
    loop = RefereeLoop(Start(PLAYERS, "classic"), Feedback(Panel("de"), Screen(display)))
    for event in record:  # judged as the loop judges what the table and the buttons bring
        if not isinstance(event, Penalty):
            assert loop._judge(0, "camera", event).ok
    assert loop.game.over
    return loop, display, {e.player: e.points for e in record if isinstance(e, Penalty)}


@pytest.fixture
def dealt():
    """The bots' game: the deal (whose hands are left at its end) and its record."""
    record = []
    deal, _ = play_game(get_preset("classic"), PLAYERS, make_bots(["sensible"], PLAYERS, random.Random(5)),
                        random.Random(5), 0, record)
    return deal, record


def enter(loop, points: int, t_ms: int = 0) -> None:
    for _ in range(points // 10):
        loop.button(t_ms, "draw_repeat")
    for _ in range(points % 10):
        loop.button(t_ms, "draw")
    loop.button(t_ms, "next")


def test_each_non_winner_enters_their_points_in_seat_order(ended):
    loop, display, truth = ended
    for name in [p for p in PLAYERS if p in truth]:
        cards, least, most = loop.game.penalty_bounds(name)
        assert display.image.tobytes() == screens.penalty(name, 0, cards, least, most).tobytes()
        enter(loop, truth[name])
    assert loop.game.penalties == truth and loop.game.penalties_complete
    assert display.image.tobytes() == screens.game_over(loop.game.winner_name, truth, "de").tobytes()


def test_back_takes_a_point_off_but_never_below_zero(ended):
    loop, display, truth = ended
    name = next(p for p in PLAYERS if p in truth)
    cards, least, most = loop.game.penalty_bounds(name)
    loop.button(0, "draw")
    loop.button(0, "back")
    loop.button(0, "back")  # at zero: stays zero
    loop.button(0, "draw_repeat")
    loop.button(0, "draw")
    loop.button(0, "back")
    assert display.image.tobytes() == screens.penalty(name, 10, cards, least, most).tobytes()


def test_a_number_the_cards_cannot_be_worth_is_refused_and_can_be_corrected(ended):
    loop, display, truth = ended
    name = next(p for p in PLAYERS if p in truth)
    cards, least, most = loop.game.penalty_bounds(name)
    enter(loop, most + 1)
    assert name not in loop.game.penalties
    problem = f"Nur {least} bis {most} möglich"
    assert display.image.tobytes() == screens.penalty(name, most + 1, cards, least, most, problem).tobytes()
    for _ in range(most + 1 - truth[name]):
        loop.button(0, "back")
    loop.button(0, "next")
    assert loop.game.penalties[name] == truth[name]


def test_holding_draw_during_a_turn_draws_nothing():
    loop = RefereeLoop(Start(PLAYERS, "classic"), Feedback(Panel("de")))
    loop.button(0, "draw_repeat")
    assert loop.game.drawn == 0


def test_next_once_every_penalty_is_in_starts_the_sessions_next_game(ended):
    loop, display, truth = ended
    for name in [p for p in PLAYERS if p in truth]:
        enter(loop, truth[name])
    loop.button(0, "next")
    session = loop.referee.session
    assert len(session.games) == 2 and not loop.game.over and loop.game.penalties == {}
    assert session.totals() == {name: truth.get(name, 0) for name in PLAYERS}
    assert display.image.tobytes() == screens.turn(None, loop.game.hand_sizes(), loop.game.stock, 0, 3).tobytes()


def test_cards_laid_face_up_are_read_and_summed_and_next_enters_the_sum(ended, dealt):
    loop, display, truth = ended
    deal, _ = dealt
    feed = Feed(loop)
    feed.quiet()
    for number, name in enumerate(p for p in PLAYERS if p in truth):
        hand = sorted(deal.hands[PLAYERS.index(name)], key=lambda card: card.code)
        for index, card in enumerate(hand):
            feed.lay(card.code, (100 + 90 * index, 150 + 200 * number))
            feed.quiet()
        cards, least, most = loop.game.penalty_bounds(name)
        codes = tuple(card.code for card in hand)
        assert display.image.tobytes() == screens.penalty(name, sum(c.number for c in hand), cards, least, most,
                                                          counted=codes).tobytes()
        feed.press("next")
        feed.quiet()
    assert loop.game.penalties == truth


def test_a_card_laid_by_mistake_and_taken_away_again_does_not_count(ended, dealt):
    loop, display, truth = ended
    deal, _ = dealt
    name = next(p for p in PLAYERS if p in truth)
    hand = sorted(deal.hands[PLAYERS.index(name)], key=lambda card: card.code)
    other = next(card for seat, h in enumerate(deal.hands) if seat != PLAYERS.index(name) for card in h)
    feed = Feed(loop)
    feed.quiet()
    feed.lay(other.code, (500, 400))
    feed.quiet()
    feed.lift(other.code)
    feed.quiet()
    for index, card in enumerate(hand):
        feed.lay(card.code, (100 + 90 * index, 150))
        feed.quiet()
    feed.press("next")
    assert loop.game.penalties[name] == truth[name]


def test_back_before_anything_is_entered_takes_the_winning_card_back(ended):
    loop, display, truth = ended
    winner = loop.game.winner_name
    loop.button(0, "back")
    assert not loop.game.over and loop.game.hand_sizes()[winner] == 1
    loop.button(0, "back")  # and during the game BACK is undo again
    assert not loop.game.over


def test_back_once_a_number_is_entered_takes_a_point_off(ended):
    loop, display, truth = ended
    loop.button(0, "draw")
    loop.button(0, "back")
    assert loop.game.over


def test_a_card_laid_for_counting_that_cannot_be_read_is_said_until_it_is_read(ended, dealt):
    loop, display, truth = ended
    deal, _ = dealt
    name = next(p for p in PLAYERS if p in truth)
    hand = sorted(deal.hands[PLAYERS.index(name)], key=lambda card: card.code)
    cards, least, most = loop.game.penalty_bounds(name)
    feed = Feed(loop)
    feed.quiet()
    feed.unreadable.add(hand[0].code)  # lying askew: the camera sees an outline only
    feed.lay(hand[0].code, (100, 150))
    feed.quiet()
    assert display.image.tobytes() == screens.penalty(name, 0, cards, least, most, unread=1).tobytes()
    feed.moving(3)
    feed.unreadable.clear()  # turned straight
    feed.moving(2)
    feed.quiet()
    assert display.image.tobytes() == screens.penalty(name, hand[0].number, cards, least, most,
                                                      counted=(hand[0].code,)).tobytes()
