"""What the table is shown and hears, as a pure function of what the loop said.

A :class:`Panel` takes the loop's outputs (verdicts, notices, the state after each) and
keeps what is in force: a rejected move until the loop clears its alert, an open
question, a notice about the table until the table is clear again. :meth:`Panel.image`
is the screen for that, :meth:`Panel.verdict` and :meth:`Panel.notice` return the sound
each calls for. The device shows and plays them; the panel knows no hardware and no clock.

Which screen wins, most urgent first: a question, a rejected move, a notice about the
table, the end of the game, whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from ..cards import Card, join_names
from ..loop.outputs import GameView, Judged, Notice
from ..rules.errors import ErrorCode
from . import screens
from .texts import headline, word

# notices that stay on the screen until the notice that ends them (or, for ``unread``
# and ``lift_first``, until the next verdict)
_LASTING = {"desync": "in_sync", "no_view": "clear", "busy": "clear", "no_camera": "camera_back",
            "markers": "markers_found"}
_UNTIL_VERDICT = ("unread", "lift_first", "profile", "calibrated", "calibrated_again", "calibration_failed")
_TITLES = {
    "desync": ("Tisch prüfen", "Check the table"),
    "no_view": ("Keine Sicht", "No view"),
    "no_camera": ("Keine Kamera", "No camera"),
    "markers": ("Marker?", "Markers?"),
    "profile": ("Kartenprofil?", "Deck profile?"),
    "calibrated": ("Kalibriert", "Calibrated"),
    "calibrated_again": ("Kalibriert", "Calibrated"),
    "calibration_failed": ("Kalibrieren", "Calibrating"),
    "busy": ("Tisch unruhig", "Table busy"),
    "unread": ("Karte?", "Card?"),
    "lift_first": ("Erst wegnehmen!", "Take it away first!"),
}


@dataclass
class Panel:
    lang: str = "de"
    turn_tick: bool = False  # a tick each time the turn passes
    view: GameView | None = None
    rejection: Judged | None = None  # the last rejected move, shown while the loop's alert stands
    table_notice: Notice | None = None  # a notice about the table still in force

    # ------------------------------------------------------------ the loop's outputs
    def verdict(self, judged: Judged) -> str | None:
        """Take a verdict in; returns the sound it calls for, if any."""
        if self.table_notice is not None and self.table_notice.kind in _UNTIL_VERDICT:
            self.table_notice = None
        if not judged.verdict.ok:
            self.rejection = judged
            return "rejected"
        if self.turn_tick and judged.player != judged.current and judged.current is not None:
            return "turn"
        return None

    def notice(self, notice: Notice) -> str | None:
        """Take a notice in; returns the sound it calls for, if any."""
        if notice.kind in _LASTING or notice.kind in _UNTIL_VERDICT:
            self.table_notice = notice
        elif self.table_notice is not None and _LASTING.get(self.table_notice.kind) == notice.kind:
            self.table_notice = None
        if notice.kind == "question":
            return "question"
        if notice.kind in ("desync", "lift_first", "unread", "no_camera", "markers", "profile"):
            return "rejected" if notice.kind == "lift_first" else "question"
        if notice.kind == "calibration_failed":
            return "rejected"
        return None

    def state(self, view: GameView) -> str | None:
        """Take the state after an event in; returns the sound it calls for, if any."""
        ended = view.over and not (self.view is not None and self.view.over)
        self.view = view
        if view.alert is None:
            self.rejection = None
        return "game_over" if ended else None

    # ------------------------------------------------------------ the screen
    def image(self) -> Image.Image:
        view, lang = self.view, self.lang
        if view is None:
            return screens.turn(None, {}, 0, 0, 0, lang)
        if view.question:
            return screens.question(join_names([Card.parse(c) for c in view.question], lang), lang)
        if view.penalty is not None:
            entry = view.penalty
            return screens.penalty(entry.player, entry.points, entry.cards, entry.least, entry.most,
                                   self._penalty_problem(), lang, entry.counted, entry.unread)
        if self.rejection is not None and view.alert is not None:
            return self._rejection_image()
        if self.table_notice is not None:
            kind = self.table_notice.kind
            title = _TITLES[kind][0 if lang == "de" else 1]
            return screens.message(title, self.table_notice.message(lang).split("; "))
        if view.over:
            return screens.game_over(view.winner, view.penalties, lang)
        return screens.turn(view.current, view.hands, view.stock, view.drawn, view.draw_limit, lang)

    def _penalty_problem(self) -> str | None:
        """Why the number entered last was refused, in a few words, while that stands."""
        judged = self.rejection
        if judged is None or self.view.alert is None or judged.verdict.code is not ErrorCode.BAD_PENALTY:
            return None
        params = judged.verdict.params
        if judged.verdict.reason == "penalty_range":
            return word("penalty_range", self.lang, low=params["low"], high=params["high"])
        return word("penalty_impossible", self.lang, points=judged.event.points)

    def _rejection_image(self) -> Image.Image:
        judged, lang = self.rejection, self.lang
        code = judged.verdict.code
        detail = judged.verdict.message(lang)
        title = headline(code, lang)
        if code is ErrorCode.SKIPPED_NUMBER:
            title, detail = f"{detail}!", _laid(judged, lang)
        hint = word("lift_hint", lang) if judged.source == "camera" else None
        return screens.alert(title, detail, hint, lang)


def _laid(judged: Judged, lang: str) -> str:
    """"Rot 14 liegt auf Rot 12" for a card laid on a pile, "Rot 14 gelegt" otherwise."""
    event = judged.event
    card = event.card.name(lang)
    if getattr(event, "on", None) is not None:
        return f"{card} {'liegt auf' if lang == 'de' else 'lies on'} {event.on.name(lang)}"
    return f"{card} {'gelegt' if lang == 'de' else 'laid'}"
