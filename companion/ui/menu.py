"""The setup menu, opened by holding NEXT: a button-only flow over a table of items.

NEXT goes to the next item (after the last, it closes the menu and the choices take
effect), DRAW steps the value forward, BACK steps it back; holding NEXT again leaves
the menu with nothing changed. Each item is a row of :data:`ITEMS`: its label and the
values it cycles through, so every transition is visible in one place. Nothing here
draws on hardware or knows the loop: :meth:`Menu.choice` is what was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PIL import Image

from ..rules.presets import PRESETS, PresetError, get_preset
from . import screens

SESSIONS = tuple(("games", n) for n in range(1, 11)) + (("limit", 500),)
VOLUMES = (0.0, 0.3, 0.8)


@dataclass(frozen=True)
class Choice:
    """What the menu sets: the table's players and their seat order, the rules and the
    session (these begin a new session), the sound and the language (at once)."""

    names: tuple[str, ...]  # every name the device knows, in seat order
    players: int  # how many of them play
    dealer: int  # the seat that deals: the next seat begins
    rules: str
    session: tuple[str, int]  # ("games", n) or ("limit", points)
    tiebreak: str
    volume: float
    lang: str
    calibrate: str | bool = False  # start the calibration guide when the menu closes: "single" or "laid_out"

    @property
    def seats(self) -> tuple[str, ...]:
        """The players in seat order from the one after the dealer, who begins."""
        playing = self.names[:self.players]
        first = (self.dealer + 1) % self.players
        return playing[first:] + playing[:first]

    def starts_new_session(self, other: "Choice") -> bool:
        return (self.seats, self.rules, self.session, self.tiebreak) != (
            other.seats, other.rules, other.session, other.tiebreak)


def _rules_for(players: int) -> tuple[str, ...]:
    playable = []
    for name in PRESETS:
        try:
            get_preset(name).check_players(players)
        except PresetError:
            continue
        playable.append(name)
    return tuple(playable)


# the choice's field, its label (German, English), its values for a choice, a value's text
ITEMS = (
    ("players", ("Spieler", "Players"), lambda c: tuple(range(2, min(6, len(c.names)) + 1)),
     lambda c, v, lang: str(v)),
    ("dealer", ("Es gibt", "Dealer"), lambda c: tuple(range(c.players)), lambda c, v, lang: c.names[v]),
    ("rules", ("Regeln", "Rules"), lambda c: _rules_for(c.players), lambda c, v, lang: v),
    ("session", ("Runde", "Session"), lambda c: SESSIONS,
     lambda c, v, lang: (f"{v[1]} Spiele" if lang == "de" else f"{v[1]} games") if v[0] == "games"
     else (f"bis {v[1]} Punkte" if lang == "de" else f"to {v[1]} points")),
    ("tiebreak", ("Gleichstand", "Tie"), lambda c: ("share", "playoff"),
     lambda c, v, lang: {"share": ("teilen", "share"), "playoff": ("Stechen", "play-off")}[v][lang != "de"]),
    ("volume", ("Ton", "Sound"), lambda c: VOLUMES,
     lambda c, v, lang: {0.0: ("aus", "off"), 0.3: ("leise", "quiet"), 0.8: ("laut", "loud")}[v][lang != "de"]),
    ("lang", ("Sprache", "Language"), lambda c: ("de", "en"), lambda c, v, lang: {"de": "Deutsch", "en": "English"}[v]),
    ("calibrate", ("Kalibrieren", "Calibrate"), lambda c: (False, "single", "laid_out"),
     lambda c, v, lang: {False: ("nein", "no"), "single": ("einzeln", "one by one"),
                         "laid_out": ("ausgelegt", "laid out")}[v][lang != "de"]),
)


def _with(choice: Choice, key: str, value) -> Choice:
    choice = replace(choice, **{key: value})
    if key == "players":  # fewer players: the dealer and the rules must still fit
        choice = replace(choice, dealer=min(choice.dealer, value - 1),
                         rules=choice.rules if choice.rules in _rules_for(value) else "classic")
    return choice


class Menu:
    def __init__(self, choice: Choice):
        self.before = choice
        self.choice = choice
        self.item = 0

    def press(self, name: str) -> str | None:
        """A press while the menu is open: ``"done"`` (closed, the choice stands),
        ``"cancel"`` (closed, nothing changed) or None (still open)."""
        if name == "menu":
            self.choice = self.before
            return "cancel"
        if name == "next":
            self.item += 1
            return "done" if self.item == len(ITEMS) else None
        if name in ("draw", "back"):
            key, _, values, _ = ITEMS[self.item]
            options = values(self.choice)
            current = getattr(self.choice, key)
            index = options.index(current) if current in options else 0
            self.choice = _with(self.choice, key, options[(index + (1 if name == "draw" else -1)) % len(options)])
        return None

    def image(self) -> Image.Image:
        key, (german, english), _, text = ITEMS[self.item]
        lang = self.choice.lang
        return screens.menu(german if lang == "de" else english, text(self.choice, getattr(self.choice, key), lang),
                            self.item + 1, len(ITEMS), lang)
