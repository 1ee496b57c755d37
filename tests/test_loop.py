"""The referee loop on sequences of readings and presses, without rendering: what the
table hears after every move."""

import pytest

from companion.cards import Card
from companion.loop import Journal, LoopError, LoopSettings, RefereeLoop
from companion.record import check, read_objects, summary
from companion.rules import Start
from table_feed import Feed, box

PILES = {"low": 100, "mid": 170, "high": 240}  # x of a row's three piles
ROW_Y = {"R": 100, "G": 220, "B": 340, "Y": 460}


def place(card: str, pile: str) -> tuple[float, float]:
    return (PILES[pile], ROW_Y[card[0]])


class Heard:
    """The loop's outputs as a family would notice them."""

    def __init__(self):
        self.verdicts, self.notices, self.states = [], [], []

    def verdict(self, judged):
        self.verdicts.append(judged)

    def notice(self, notice):
        self.notices.append(notice)

    def state(self, view):
        self.states.append(view)

    def said(self):
        return [(j.event.kind, getattr(j.event, "card", None) and j.event.card.code, j.verdict.ok or j.verdict.code.value)
                for j in self.verdicts]

    def kinds(self):
        return [n.kind for n in self.notices]


def table(players=("Anna", "Ben", "Cem"), rules="classic", opener="Anna"):
    heard = Heard()
    journal = Journal()

    class Both:
        def verdict(self, j):
            heard.verdict(j)
            journal.verdict(j)

        def notice(self, n):
            heard.notice(n)

        def state(self, v):
            heard.state(v)

    loop = RefereeLoop(Start(players, rules), Both(), opener=opener)
    assert heard.said() == [("start", None, True)] and journal.lines[0]["event"] == "start"
    heard.verdicts.clear()
    feed = Feed(loop)
    feed.quiet()
    return loop, feed, heard, journal


def opened(loop, feed, heard):
    """Anna opens red, NEXT: Ben's turn."""
    feed.lay("R11", place("R11", "mid"))
    feed.quiet()
    feed.press("next")
    feed.quiet(0.5)
    heard.verdicts.clear()
    heard.notices.clear()
    assert loop.game.current_player == "Ben"


def test_a_legal_card_is_counted_for_the_opener_and_next_passes_the_turn():
    loop, feed, heard, _ = table()
    touched = feed.lay("R11", place("R11", "mid"), hidden_frames=0)
    feed.quiet()
    feed.press("next")
    assert heard.said() == [("place", "R11", True), ("next", None, True)]
    assert heard.verdicts[0].t_ms == touched and heard.verdicts[0].player == "Anna"
    assert heard.states[-1].current == "Ben" and heard.states[-1].hands["Anna"] == 19


def test_a_card_on_the_wrong_colour_is_rejected_until_it_is_taken_back_and_changes_nothing():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("G11", place("G11", "mid"))
    feed.quiet()
    before = (loop.game.hand_sizes(), loop.game.table())
    del feed.table["R11"]  # G12 goes onto the red 11
    feed.lay("G12", place("R11", "mid"))
    feed.quiet()
    assert heard.said()[-1] == ("place", "G12", "wrong_colour")
    assert heard.states[-1].alert == "wrong_colour"
    feed.moving(3)
    del feed.table["G12"]
    feed.table["R11"] = place("R11", "mid")
    feed.moving(2)
    feed.quiet()
    assert heard.states[-1].alert is None and "withdrawn" in heard.kinds()
    assert (loop.game.hand_sizes(), loop.game.table()) == before
    assert heard.said() == [("place", "G11", True), ("place", "G12", "wrong_colour")]


def test_a_card_seen_where_one_missing_card_would_make_it_legal_is_asked_about():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("R13", place("R13", "high"))  # R12 and R13 in one reach: only R13 shows
    feed.quiet()
    assert heard.said() == [] and heard.kinds() == ["question"]
    assert heard.notices[0].message("de") == "Rot 12 darunter?" and heard.states[-1].question == ("R12",)
    feed.press("next")  # yes
    assert heard.said() == [("place", "R12", True), ("place", "R13", True)]
    assert loop.game.current_player == "Ben" and loop.game.hand_sizes()["Ben"] == 18


def test_no_to_the_question_rejects_the_card_as_a_skipped_number():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("R13", place("R13", "high"))
    feed.quiet()
    feed.press("back")  # no
    assert heard.said() == [("place", "R13", "skipped_number")]
    assert heard.verdicts[-1].verdict.message("de") == "Rot 12 fehlt"
    assert loop.game.hand_sizes()["Ben"] == 20


def test_an_unanswered_question_takes_the_legal_reading_at_the_next_card_and_says_so():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("R13", place("R13", "high"))
    feed.quiet()
    feed.lay("R10", place("R10", "low"))
    feed.quiet()
    assert heard.kinds() == ["question", "assumed"]
    assert heard.said() == [("place", "R12", True), ("place", "R13", True), ("place", "R10", True)]


def test_a_gap_no_single_card_explains_is_rejected_at_once():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("R14", place("R14", "high"))
    feed.quiet()
    assert heard.kinds() == [] and heard.said() == [("place", "R14", "skipped_number")]


def lay_on(feed, code, below):
    """A card laid on a pile's top card, which it hides."""
    at = feed.table.pop(below)
    feed.lay(code, (at[0] + 2, at[1] + 1))
    feed.quiet()


def lift_off(feed, code, below):
    feed.moving(4)
    at = feed.table.pop(code)
    feed.table[below] = (at[0] - 2, at[1] - 1)
    feed.moving(3)
    feed.quiet()


def test_the_last_card_counted_lifted_off_its_pile_again_is_taken_back():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("R12", place("R12", "high"))
    feed.quiet()
    lay_on(feed, "R13", "R12")
    lift_off(feed, "R13", "R12")
    assert heard.said() == [("place", "R12", True), ("place", "R13", True), ("undo", None, True)]
    assert loop.game.hand_sizes()["Ben"] == 19 and "taken_back" in heard.kinds()


def test_a_counted_card_hidden_by_a_cup_is_not_taken_back():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("R12", place("R12", "high"))
    feed.quiet()
    feed.lift("R12")  # a cup stands on the pile's only card: nothing shows beneath
    feed.quiet()
    assert heard.said() == [("place", "R12", True)] and loop.game.hand_sizes()["Ben"] == 19


def test_next_pressed_while_the_hand_still_leaves_counts_after_the_card():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.moving(4)
    touched = feed.t
    feed.table["R12"] = place("R12", "high")
    feed.moving(1)
    pressed = feed.press("next")  # the hand is still over the table
    feed.moving(3)
    feed.quiet()
    assert heard.said() == [("place", "R12", True), ("next", None, True)]
    assert heard.verdicts[0].player == "Ben" and touched < pressed
    assert loop.game.current_player == "Cem"


def test_next_pressed_as_the_next_hand_reaches_in_counts_before_that_hands_card():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    arm = (box(215, 50, 290, 600),)  # Ben's, from the bottom edge to red's high pile
    feed.moving(4, where=arm)
    feed.table["R12"] = place("R12", "high")
    feed.moving(3, where=arm)
    feed.moving(2, where=(box(0, 560, 400, 600),))  # Ben's hand leaving, Cem's arm coming in
    feed.press("next")
    pile = place("G11", "mid")
    feed.moving(3, where=(box(0, pile[1] - 60, 400, 600),))  # Cem's hand over the green row
    feed.table["G11"] = pile
    feed.moving(3, where=(box(0, pile[1] - 60, 400, 600),))
    feed.quiet()
    assert heard.said() == [("place", "R12", True), ("next", None, True), ("place", "G11", True)]
    assert [j.player for j in heard.verdicts] == ["Ben", "Ben", "Cem"]


def test_a_counted_card_read_again_where_nothing_changed_does_not_move_a_press():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    r11 = feed.table.pop("R11")
    feed.moving(4, where=(box(0, 0, 640, 600),))  # a sleeve hides the 11 and leaves: not seen after it
    feed.quiet()
    feed.table["R11"] = r11  # read again in the next movement, which never touches its place
    arm = (box(215, 50, 290, 600),)
    feed.moving(4, where=arm)
    feed.table["R12"] = place("R12", "high")
    feed.moving(1, where=arm)
    feed.press("next")  # while Ben's hand leaves
    feed.moving(2, where=arm)
    feed.quiet()
    assert heard.said() == [("place", "R12", True), ("next", None, True)]
    assert loop.game.current_player == "Cem"


def test_next_while_a_card_just_laid_cannot_be_read_waits_for_it_and_accuses_no_one():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.unreadable.add("R12")  # a cup on its corner
    feed.lay("R12", place("R12", "high"))
    feed.quiet()
    feed.press("next")
    feed.quiet()
    assert heard.said() == [] and heard.kinds() == ["unread"]
    pile = place("G11", "mid")  # Cem's card, while the 12 still cannot be read
    feed.lay("G11", pile, where=(box(pile[0] - 40, pile[1] - 60, pile[0] + 40, 600),))
    feed.quiet()
    assert heard.said() == []
    feed.unreadable.clear()  # the cup taken away
    feed.moving(1)
    feed.quiet()
    assert heard.said() == [("place", "R12", True), ("next", None, True), ("place", "G11", True)]
    assert [j.player for j in heard.verdicts] == ["Ben", "Ben", "Cem"]


def test_next_answering_a_question_is_an_answer_even_while_a_card_lies_unread():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.unreadable.add("G5")
    feed.lay("G5", (400, 220))  # something a hand left that cannot be read
    feed.lay("R13", place("R13", "high"))  # R12 and R13 in one reach: only R13 shows
    feed.quiet()
    assert heard.kinds() == ["question"]
    feed.press("next")  # yes
    assert heard.said() == [("place", "R12", True), ("place", "R13", True)]
    assert heard.kinds() == ["question", "answered"]


def test_next_held_for_an_unread_card_is_judged_as_it_stands_after_ten_seconds():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.unreadable.add("R12")
    feed.lay("R12", place("R12", "high"))
    feed.quiet()
    feed.press("next")
    feed.quiet(9.5)
    assert heard.said() == []
    feed.quiet(1)
    assert heard.said() == [("next", None, "must_play_or_draw")]


def test_a_press_on_a_quiet_table_counts_at_once_and_a_rejected_press_alerts_until_the_next_accepted_event():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.press("next")  # Ben has neither laid nor drawn
    assert heard.said() == [("next", None, "must_play_or_draw")]
    assert heard.states[-1].alert == "must_play_or_draw"
    feed.press("draw")
    assert heard.states[-1].alert is None and loop.game.drawn == 1


def test_back_takes_back_the_last_accepted_event():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.press("draw")
    feed.press("back")
    assert heard.said() == [("draw", None, True), ("undo", None, True)]
    assert loop.game.drawn == 0


def test_back_while_a_rejected_card_lies_asks_for_that_card_and_takes_nothing_back():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("G11", place("G11", "mid"))
    feed.quiet()
    del feed.table["R11"]
    feed.lay("G12", place("R11", "mid"))  # wrong colour
    feed.quiet()
    before = (loop.game.hand_sizes(), loop.game.table(), loop.game.current_player)
    feed.press("back")
    assert (loop.game.hand_sizes(), loop.game.table(), loop.game.current_player) == before
    assert heard.notices[-1].kind == "lift_first" and heard.notices[-1].params == {"card": "G12"}
    feed.moving(3)
    del feed.table["G12"]
    feed.table["R11"] = place("R11", "mid")
    feed.moving(2)
    feed.quiet()
    feed.press("back")  # the rejected card is gone: BACK takes back the G11
    assert heard.said()[-1] == ("undo", None, True) and not loop.game.on_table(Card.parse("G11"))


def test_a_counted_card_that_goes_missing_raises_a_desync_notice_after_three_seconds_and_resyncs():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.press("draw")  # the last accepted event is not the card: its loss is no take-back
    feed.moving(3)
    hidden = feed.table.pop("R11")  # a cup stands on it
    feed.moving(2)
    feed.quiet(2.5)
    assert heard.kinds() == []
    feed.quiet(1.0)
    assert heard.kinds() == ["desync"] and heard.notices[0].message("de") == "Rot: 11 erwartet"
    feed.moving(3)
    feed.table["R11"] = hidden
    feed.quiet()
    assert heard.kinds() == ["desync", "in_sync"]
    assert [v.verdict.ok for v in heard.verdicts] == [True]  # nothing judged from it


def test_the_journal_checks_as_a_record_with_the_same_summary():
    loop, feed, heard, journal = table()
    opened(loop, feed, heard)
    feed.lay("R12", place("R12", "high"))
    feed.quiet()
    lay_on(feed, "R13", "R12")
    lift_off(feed, "R13", "R12")
    feed.lay("R10", place("R10", "low"))
    feed.quiet()
    feed.press("next")
    lines = [__import__("json").dumps(line) for line in journal.lines]
    from companion.rules import Referee

    referee = Referee()
    assert all(c.verdict.ok for c in check(read_objects(lines), referee))
    assert summary(referee) == summary(loop.referee)


def test_a_loop_cannot_begin_with_a_rejected_start_or_an_unknown_opener():
    with pytest.raises(LoopError):
        RefereeLoop(Start(("Anna", "Anna")), Heard())
    with pytest.raises(LoopError):
        RefereeLoop(Start(("Anna", "Ben")), Heard(), opener="Zoe")
    with pytest.raises(ValueError):
        RefereeLoop(Start(("Anna", "Ben")), Heard()).button(0, "jump")


def test_cards_are_not_judged_after_the_game_is_over():
    loop, feed, heard, _ = table(players=("Anna", "Ben"))
    loop.game.winner = 0  # the game just ended
    feed.lay("Y11", place("Y11", "mid"))
    feed.quiet()
    assert heard.said() == []


def test_settings_change_how_long_a_desync_waits():
    assert LoopSettings().desync_ms == 3000


def test_a_press_made_before_a_question_was_put_does_not_answer_it():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.moving(4)
    feed.table["R13"] = place("R13", "high")
    feed.moving(1)
    feed.press("next")  # ends Ben's turn while his hand leaves: no answer to a question not yet put
    feed.moving(3)
    feed.quiet()
    assert heard.kinds() == ["question", "assumed"]
    assert heard.said() == [("place", "R12", True), ("place", "R13", True), ("next", None, True)]


def test_a_rejected_card_replaced_by_the_right_one_in_one_movement_clears_the_alert():
    loop, feed, heard, _ = table()
    opened(loop, feed, heard)
    feed.lay("R13", place("R13", "high"))
    feed.quiet()
    feed.press("back")  # no, R12 is not beneath: rejected
    assert heard.states[-1].alert == "skipped_number"
    feed.moving(4)
    del feed.table["R13"]
    feed.table["R12"] = place("R12", "high")  # swapped for the right card in one movement
    feed.moving(3)
    feed.quiet()
    assert heard.said()[-1] == ("place", "R12", True)
    assert heard.states[-1].alert is None and "withdrawn" in heard.kinds()
