"""Property tests over random games: every preset, every player count, random moves.

A :class:`Deal` knows the real hands and the stock; its referee (:class:`Game`) only
counts. After every move the two views must agree, every card must be in exactly one
place, the rows must stay rows, and the game must end exactly when a hand is empty.
A second referee, fed the same events as JSON lines, must accept all of them, and
taking any accepted event back must restore what it showed before.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import Card
from companion.record import check, event_to_dict, parse_event, summary
from companion.rules.deal import Deal
from companion.rules.errors import Rejection
from companion.rules.events import Draw, Next, Penalty, Place, Start, Undo
from companion.rules.presets import PRESETS
from companion.rules.session import Referee
from companion.sim.bots import RandomBot
from companion.sim.simulate import DEFAULT_NAMES, play_session

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 20_000


@st.composite
def setups(draw, presets=tuple(PRESETS)):
    name = draw(st.sampled_from(presets))
    preset = PRESETS[name]
    players = draw(st.integers(preset.min_players, preset.max_players))
    seed = draw(st.integers(0, 2**32 - 1))
    return name, DEFAULT_NAMES[:players], seed


def new_deal(name, names, seed) -> tuple[Deal, RandomBot]:
    rng = random.Random(seed)
    deal = Deal(PRESETS[name], names, rng, first=seed % len(names))
    return deal, RandomBot(random.Random(rng.random()))


def play(deal: Deal, bot: RandomBot):
    """Yield the recorded event of every move until the game is over."""
    steps = 0
    while not deal.game.over:
        moves = deal.legal_moves()
        yield deal.push_unchecked(bot.choose(deal, moves))
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"


# ----------------------------------------------------------------- invariants
def assert_cards_accounted_for(deal: Deal) -> None:
    game = deal.game
    deck = game.preset.deck
    places = [card for hand in deal.hands for card in hand] + list(deal.stock) + game.table()
    counts = Counter(places)
    assert set(counts) == set(deck), "a card is missing or does not belong to the game"
    assert max(counts.values()) == 1, f"cards in two places: {[c for c, n in counts.items() if n > 1]}"
    assert sum(len(h) for h in deal.hands) + len(deal.stock) + len(game.table()) == len(deck)
    # the referee never sees the cards, but counts them right
    assert game.hands == [len(hand) for hand in deal.hands]
    assert game.stock == len(deal.stock)


def assert_rows(deal: Deal, first_number: int | None) -> None:
    game, preset = deal.game, deal.preset
    table = game.table()
    rows = game.rows()
    assert set(rows) == set(preset.colours)
    for colour in preset.colours:
        numbers = sorted(c.number for c in table if c.colour is colour)
        if preset.converging:
            low, high = preset.laid_out[0], preset.laid_out[-1]
            present = set(numbers)
            assert {low, high} <= present
            up = low
            while up + 1 in present:
                up += 1
            down = high
            while down - 1 in present:
                down -= 1
            # two runs growing from the ends toward each other, nothing in between
            assert present == set(range(low, up + 1)) | set(range(down, high + 1))
            (a, b), (c, d) = rows[colour]
            assert a == low and d == high and b < c
            assert set(range(a, b + 1)) | set(range(c, d + 1)) == present
        else:
            if not numbers:
                assert rows[colour] is None
                continue
            # one interval without gaps ...
            assert numbers == list(range(numbers[0], numbers[-1] + 1)), f"gap in {colour}: {numbers}"
            assert rows[colour] == [numbers[0], numbers[-1]]
            # ... that contains the card that opened it
            if preset.openers_follow_first:
                assert first_number in numbers
            else:
                assert set(numbers) & preset.openers


def assert_ends_when_a_hand_is_empty(deal: Deal) -> None:
    game = deal.game
    empty = [seat for seat, hand in enumerate(deal.hands) if not hand]
    if game.over:
        assert empty == [game.winner]
        assert game.winner_name == game.players[game.winner]
    else:
        assert empty == []
        assert game.winner is None


@SETTINGS
@given(setups())
def test_every_card_in_exactly_one_place_and_rows_stay_rows(setup):
    name, names, seed = setup
    deal, bot = new_deal(name, names, seed)
    assert_cards_accounted_for(deal)
    assert_rows(deal, None)
    assert_ends_when_a_hand_is_empty(deal)
    first_number = None
    for event in play(deal, bot):
        if first_number is None and isinstance(event, Place):
            first_number = event.card.number
        assert_cards_accounted_for(deal)
        assert_rows(deal, first_number)
        assert_ends_when_a_hand_is_empty(deal)
    assert deal.game.over
    assert not deal.hands[deal.game.winner]


@SETTINGS
@given(setups())
def test_referee_fed_json_agrees_with_the_real_table(setup):
    """A referee that sees only the JSON lines accepts every move and counts the real hands."""
    name, names, seed = setup
    preset = PRESETS[name]
    deal, bot = new_deal(name, names, seed)
    referee = Referee()
    assert referee.push(parse_event(event_to_dict(Start(tuple(names), preset.name)))).ok
    for event in play(deal, bot):
        verdict = referee.push(parse_event(event_to_dict(event)))
        assert verdict.ok, f"{event}: {verdict}"
        state = summary(referee)
        assert state["hands"] == {name: len(hand) for name, hand in zip(names, deal.hands)}
        assert state["stock"] == len(deal.stock)
        assert state["over"] is deal.game.over
        assert state["current"] == deal.game.current_player
    for name, points in deal.penalties().items():
        if name != deal.game.winner_name:
            verdict = referee.push(Penalty(name, points))
            assert verdict.ok, f"true penalty {name} {points}: {verdict}"
    state = summary(referee)
    assert state["winner"] == deal.game.winner_name
    assert state["totals"] == deal.penalties()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    setups(),
    st.sampled_from([("random",), ("sensible",), ("sensible", "random")]),
    st.sampled_from([(1, None), (2, None), (None, 60)]),
    st.sampled_from(["share", "playoff"]),
)
def test_check_accepts_every_simulated_record(setup, bots, length, tiebreak):
    name, names, seed = setup
    preset = PRESETS[name]
    games, limit = length
    result = play_session(preset, names, random.Random(seed), bots, games=games, limit=limit, tiebreak=tiebreak)
    referee = Referee()
    objects = [(number, event_to_dict(event)) for number, event in enumerate(result.record, start=1)]
    rejected = [(c.line, str(c.verdict)) for c in check(objects, referee) if not c.verdict.ok]
    assert rejected == []
    state = summary(referee)
    assert state["session"]["over"] is True
    assert state["totals"] == result.totals
    assert state["session"]["winners"] == result.winners
    if limit:
        assert max(state["totals"].values()) >= limit
    else:
        assert state["games"] == games


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_undo_after_any_accepted_event_restores_the_previous_summary(setup):
    name, names, seed = setup
    preset = PRESETS[name]
    deal, bot = new_deal(name, names, seed)
    referee = Referee()
    assert referee.push(Start(tuple(names), preset.name)).ok
    start_state = summary(referee)
    assert not referee.push(Undo()).ok  # nothing to take back before the first move
    assert summary(referee) == start_state

    def push_undo_push(event):
        event = parse_event(event_to_dict(event))
        before = summary(referee)
        assert referee.push(event).ok
        after = summary(referee)
        assert referee.push(Undo()).ok
        assert summary(referee) == before, f"undo of {event} did not restore the summary"
        assert referee.push(event).ok, f"{event} not accepted again after undo"
        assert summary(referee) == after

    for event in play(deal, bot):
        push_undo_push(event)
    for name, points in deal.penalties().items():
        if name != deal.game.winner_name:
            push_undo_push(Penalty(name, points))
    assert summary(referee)["games"] == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**32 - 1))
def test_rejected_events_change_nothing(setup, noise_seed):
    """Between the real moves, random events arrive; a rejected one leaves the state as it was."""
    name, names, seed = setup
    preset = PRESETS[name]
    deal, bot = new_deal(name, names, seed)
    referee = Referee()
    assert referee.push(Start(tuple(names), preset.name)).ok
    noise = random.Random(noise_seed)
    cards = list(preset.deck) + [Card.parse("B20"), Card.parse("R1")]
    who = list(names) + [None, "Zoe"]
    for event in play(deal, bot):
        for _ in range(2):
            kind = noise.randrange(4)
            if kind == 0:
                extra = Place(noise.choice(cards), noise.choice(who))
            elif kind == 1:
                extra = Draw(noise.choice(who))
            elif kind == 2:
                extra = Next(noise.choice(who))
            else:
                extra = Penalty(noise.choice(names), noise.randrange(0, 60))
            before = summary(referee)
            verdict = referee.push(extra)
            if isinstance(verdict, Rejection):
                assert verdict.message("de") and verdict.message("en")
                assert summary(referee) == before, f"rejected {extra} changed the state"
            else:
                assert referee.push(Undo()).ok
                assert summary(referee) == before
        assert referee.push(event).ok, f"{event} rejected after noise"
    assert summary(referee)["winner"] == deal.game.winner_name


@SETTINGS
@given(setups(presets=("classic", "draw-one", "draw-continue", "free-pass", "sixty")))
def test_classic_family_opens_with_the_highest_priority_eleven(setup):
    """The first card is the red 11 if anybody holds it, else yellow, green, blue."""
    name, names, seed = setup
    preset = PRESETS[name]
    deal, bot = new_deal(name, names, seed)
    dealt = set().union(*deal.hands)
    expected = next(Card(colour, 11) for colour in preset.colours if Card(colour, 11) in dealt)
    holder = next(seat for seat, hand in enumerate(deal.hands) if expected in hand)
    first = next(play(deal, bot))
    assert isinstance(first, Place) and first.card is expected
    assert first.player == names[holder]  # the holder begins, and the record says so
    assert deal.game.current_player == names[holder]
    assert deal.game.turn_over  # the opener lays it alone


# ----------------------------------------------------------------- the checks above can fail
def test_invariant_checks_catch_a_card_in_two_places():
    deal, bot = new_deal("classic", DEFAULT_NAMES[:3], 1)
    for _ in zip(range(10), play(deal, bot)):
        pass
    assert_cards_accounted_for(deal)
    deal.stock.append(next(iter(deal.hands[0])))  # a card both in a hand and in the stock
    try:
        assert_cards_accounted_for(deal)
    except AssertionError:
        return
    raise AssertionError("a card in two places went unnoticed")


def test_invariant_checks_catch_a_gap_in_a_row():
    deal, bot = new_deal("classic", DEFAULT_NAMES[:3], 1)
    first = next(play(deal, bot))
    assert_rows(deal, first.card.number)
    red = deal.game.masks[first.card.row]
    deal.game.masks[first.card.row] = red | 1 << 14  # 14 next to a lone 11
    try:
        assert_rows(deal, first.card.number)
    except AssertionError:
        return
    raise AssertionError("a gap in a row went unnoticed")
