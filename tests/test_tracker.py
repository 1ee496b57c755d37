"""The tracker on sequences of readings, without rendering: hands, piles, take-backs,
nudges, a camera bump, and the notices when the table cannot be judged."""

from companion.cards import Card
from companion.tracker import Laid, Lifted, TableNotice, Tracker
from table_feed import Feed, Reading, Seen, box, outline

R11, R12, R13, G5 = (Card.parse(c) for c in ("R11", "R12", "R13", "G5"))


def laid(events):
    return [e for e in events if isinstance(e, Laid)]


def test_the_first_quiet_table_is_a_first_look():
    feed = Feed(Tracker(), {"R11": (100, 100)})
    feed.quiet(0.5)
    assert feed.events == [Laid(R11, 0, None, first_look=True)]


def test_nothing_is_decided_while_a_hand_moves_and_a_card_in_a_hand_is_never_laid():
    feed = Feed(Tracker(), {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    for x in range(400, 100, -40):  # a card carried across the table, read on its way
        feed.moving(1, shown={"R11": (100, 100), "R12": (x, 300)})
    feed.moving(3)  # carried off again
    feed.quiet()
    assert feed.events == []


def test_a_card_laid_is_timed_from_when_it_was_first_seen_where_it_lies():
    feed = Feed(Tracker(), {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    reached = feed.t
    touched = feed.lay("R12", (170, 100), hidden_frames=0)
    assert feed.events == []  # the hand is still there
    feed.quiet(0.2)
    assert feed.events == []  # two still frames are not yet a quiet table
    feed.quiet(0.1)
    assert feed.events == [Laid(R12, touched, None, reached_ms=reached)]


def test_a_card_laid_on_a_pile_names_the_card_it_covers_and_lifting_it_uncovers_that_card():
    feed = Feed(Tracker(), {"R11": (100, 100), "R12": (170, 100)})
    feed.quiet()
    feed.events.clear()
    del feed.table["R12"]  # covered by R13
    reached = feed.t
    feed.lay("R13", (172, 102))
    feed.quiet()
    assert laid(feed.events) == [Laid(R13, laid(feed.events)[0].t_ms, R12, reached_ms=reached)]
    feed.events.clear()
    feed.moving(4)
    del feed.table["R13"]
    feed.table["R12"] = (170, 100)
    feed.moving(3)
    feed.quiet()
    assert [type(e) for e in feed.events] == [Lifted]
    assert feed.events[0].card is R13 and feed.events[0].uncovered is R12


def test_a_nudge_or_a_camera_bump_moves_cards_without_an_event():
    feed = Feed(Tracker(), {"R11": (100, 100), "G5": (300, 250)})
    feed.quiet()
    feed.events.clear()
    feed.moving(3)
    feed.table["R11"] = (104, 97)  # nudged
    feed.quiet()
    feed.moving(2)
    feed.table = {code: (x + 35, y - 20) for code, (x, y) in feed.table.items()}  # the camera bumped
    feed.quiet()
    assert feed.events == []


def test_a_card_not_read_on_a_still_table_is_still_there():
    tracker = Tracker()
    feed = Feed(tracker, {"R11": (100, 100), "G5": (300, 250)})
    feed.quiet()
    feed.events.clear()
    tracker.observe(feed.t, Reading(True, (Seen(R11, outline(100, 100)),), 25))  # G5 missed by one look
    assert feed.events == [] and G5 in tracker.settled
    feed.quiet()
    assert feed.events == []


def test_a_card_read_late_on_a_still_table_is_laid_when_it_is_read():
    tracker = Tracker()
    feed = Feed(tracker, {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    feed.moving(3)
    feed.quiet(0.5)  # the card went down but was not read in these frames
    feed.table["R12"] = (170, 100)
    feed.quiet(0.1)
    assert laid(feed.events) == [Laid(R12, feed.t - 100, None)]


def test_a_card_read_as_the_hand_left_but_missed_by_the_quiet_read_is_still_laid():
    feed = Feed(Tracker(), {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    feed.lay("R12", (170, 100))
    feed.quiet(0.2)  # read in the last frames of the movement, the picture unchanged since
    del feed.table["R12"]  # the first quiet frame's read misses it: no outline there at all
    feed.quiet(0.1)
    assert [e.card for e in laid(feed.events)] == [R12]
    feed.quiet()  # still missed: nothing lifted without a hand
    assert [type(e) for e in feed.events] == [Laid]


def test_of_two_names_read_at_one_place_since_the_picture_changed_the_later_stands():
    feed = Feed(Tracker(), {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    feed.lay("R18", (170, 100))  # a misread under the leaving hand
    feed.quiet(0.1)
    del feed.table["R18"]
    feed.table["R12"] = (171, 100)
    feed.quiet(0.1)
    del feed.table["R12"]
    feed.quiet(0.1)
    assert [e.card for e in laid(feed.events)] == [R12]


def test_a_card_is_reached_when_the_movement_first_changed_the_picture_where_it_lies():
    feed = Feed(Tracker(), {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    feed.moving(3, where=(box(400, 400, 500, 500),))  # an arm comes in far from the piles
    reached = feed.t
    feed.moving(2, where=(box(400, 100, 500, 500), box(150, 60, 190, 90)))  # across a corner of R12's place
    feed.table["R12"] = (170, 100)
    feed.moving(3, where=(box(130, 50, 210, 150),))
    feed.quiet()
    assert laid(feed.events)[0].reached_ms == reached


def test_a_glare_spot_during_a_hand_elsewhere_lifts_nothing():
    feed = Feed(Tracker(), {"R11": (100, 100), "G5": (300, 250)})
    feed.quiet()
    feed.events.clear()
    arm = box(60, 40, 140, 600)  # over R11's pile, taken off and put back
    feed.moving(3, where=(arm,))
    feed.moving(1, where=(arm, box(280, 230, 320, 270)))  # a glare spot appears on G5 ...
    del feed.table["G5"]  # ... which is not read under it any more
    feed.moving(3, where=(arm,))
    feed.quiet()
    assert feed.events == []


def test_a_card_laid_that_cannot_be_read_is_kept_in_mind_and_keeps_its_hands_time_when_read():
    tracker = Tracker()
    feed = Feed(tracker, {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    feed.unreadable.add("R12")  # a cup on its corner
    reached = feed.t
    feed.lay("R12", (170, 100))
    feed.quiet()
    assert laid(feed.events) == [] and len(tracker.unread_laid) == 1
    feed.lay("G5", (300, 250), where=(box(260, 190, 340, 600),))  # a hand elsewhere: still kept in mind
    feed.quiet()
    assert len(tracker.unread_laid) == 1
    feed.events.clear()
    feed.unreadable.clear()  # the cup taken away
    feed.moving(1)
    feed.quiet()
    assert [(e.card, e.reached_ms) for e in laid(feed.events)] == [(R12, reached)]
    assert tracker.unread_laid == ()


def test_a_card_read_where_an_unread_one_lay_after_another_hand_was_there_has_that_hands_time():
    tracker = Tracker()
    feed = Feed(tracker, {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    feed.unreadable.add("R12")
    feed.lay("R12", (170, 100))
    feed.quiet()
    del feed.table["R12"]
    feed.unreadable.clear()
    reached = feed.t
    feed.lay("R13", (171, 101))  # laid on the pile the unread 12 tops, and read
    feed.quiet()
    assert [(e.card, e.reached_ms) for e in laid(feed.events)] == [(R13, reached)]


def test_cards_laid_on_a_pile_touching_the_next_pile_are_laid():
    feed = Feed(Tracker(), {"R11": (100, 100)})
    feed.quiet()
    feed.events.clear()
    for number, x in ((12, 158), (13, 160), (14, 157)):  # the high pile touches the 11's
        if number > 12:
            del feed.table[f"R{number - 1}"]  # covered by the card laid on it
        feed.lay(f"R{number}", (x, 101))
        feed.quiet()
    assert [e.card.code for e in laid(feed.events)] == ["R12", "R13", "R14"]


def test_a_card_that_goes_missing_after_a_movement_is_lifted():
    feed = Feed(Tracker(), {"R11": (100, 100), "R12": (170, 100)})
    feed.quiet()
    feed.events.clear()
    feed.lift("R12")
    feed.quiet()
    assert feed.events == [Lifted(R12, feed.events[0].t_ms, None)]


def test_notices_when_the_table_is_out_of_view_or_never_still_and_when_it_is_back():
    tracker = Tracker()
    feed = Feed(tracker, {"R11": (100, 100)})
    feed.quiet()
    saved, feed.table = feed.table, {}
    for _ in range(25):  # the camera sees neither markers nor cards for 2.5 s
        feed.events.extend(tracker.observe(feed.t, Reading(False, (), 0)))
        feed.t += 100
    assert [e.kind for e in feed.events if isinstance(e, TableNotice)] == ["no_view"]
    feed.table = saved
    feed.events.clear()
    feed.moving(1)
    assert [e.kind for e in feed.events] == ["clear"]
    feed.events.clear()
    feed.moving(110)  # a hand over the table for 11 s
    assert [e.kind for e in feed.events] == ["busy"]
    feed.events.clear()
    feed.quiet()
    assert [e.kind for e in feed.events] == ["clear"]


def test_a_card_a_new_card_covers_in_part_lies_under_it_and_is_not_lifted():
    tracker = Tracker()
    feed = Feed(tracker, {"R11": (100, 100), "R12": (140, 100)})  # side by side, 40 px apart
    feed.quiet()
    feed.events.clear()
    del feed.table["R12"]  # R13 hides a third of R12, and the reader no longer reads it
    feed.lay("R13", (180, 100))
    feed.quiet()
    assert laid(feed.events) == feed.events and [e.card for e in feed.events] == [R13]
    assert feed.events[0].on is None and R12 in tracker.covered


def test_a_lamp_switched_on_lays_no_card_where_the_cards_are_read_under_other_names():
    tracker = Tracker()
    feed = Feed(tracker, {"G8": (100, 100), "R11": (300, 250)})
    feed.quiet()
    feed.events.clear()
    del feed.table["G8"]
    feed.table["Y8"] = (100, 100)  # the warm light makes the green 8 read as yellow
    feed.moving(1)  # one frame changes all at once: no hand was there
    feed.quiet()
    assert feed.events == [] and Card.parse("G8") in tracker.settled
    del feed.table["R11"]
    feed.lay("R12", (300, 250))  # the lamp still on: the same misreading is still no card laid
    feed.quiet()
    assert [(e.card, e.on) for e in feed.events] == [(R12, R11)]
    assert Card.parse("Y8") not in tracker.settled


def test_a_card_laid_by_a_hand_in_a_settled_cards_place_is_laid():
    feed = Feed(Tracker(), {"G8": (100, 100)})
    feed.quiet()
    feed.events.clear()
    del feed.table["G8"]
    feed.lay("G9", (101, 100))  # laid squarely on the pile
    feed.quiet()
    assert [(e.card, e.on) for e in feed.events] == [(Card.parse("G9"), Card.parse("G8"))]


def test_a_glare_spot_that_hides_a_card_for_a_while_takes_nothing_away():
    tracker = Tracker()
    feed = Feed(tracker, {"G18": (100, 100), "R11": (300, 250)})
    feed.quiet()
    feed.events.clear()
    del feed.table["G18"]  # the spot appears: the 18 cannot be read
    feed.moving(1)
    feed.quiet()
    feed.table["G16"] = (100, 100)  # a later look reads it as a 16
    feed.quiet()
    assert feed.events == [] and Card.parse("G18") in tracker.settled
