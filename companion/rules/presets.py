"""Rule presets: every reading of the rules is a named, documented value.

``classic`` is the Ravensburger manual (page 2). Every other preset names the source
it comes from and differs from ``classic`` only where its docstring says so.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ..cards import COLOURS, DECK, Card, Colour

CLASSIC_DEAL = MappingProxyType({2: 20, 3: 20, 4: 15, 5: 12, 6: 10})


class PresetError(ValueError):
    """An unknown preset name or an option the preset does not take."""


@dataclass(frozen=True)
class Preset:
    """One way to play. All fields are plain values; see :data:`PRESETS`."""

    name: str
    title: Mapping[str, str] = dataclasses.field(compare=False)
    description: str
    colours: tuple[Colour, ...] = COLOURS
    highest: int = 20
    min_players: int = 2
    max_players: int = 6
    deal: Mapping[int, int] = dataclasses.field(default_factory=lambda: CLASSIC_DEAL)
    laid_out: tuple[int, ...] = ()
    """Numbers of every colour that lie on the table before the first turn."""
    openers: frozenset[int] = frozenset({11})
    """Numbers that may open a colour row that is not yet on the table."""
    openers_follow_first: bool = False
    """After the first card, further rows open only with the first card's number."""
    opening_card_starts: bool = True
    """The game begins with its first card being laid (the holder of the red 11 begins);
    otherwise a named (or the first listed) player begins and may draw."""
    opening_ends_turn: bool = True
    """The first card of the game is laid alone; then the next player is on."""
    draw_limit: int = 3
    drawn_card_ends_turn: bool = True
    """After a fitting drawn card is laid, the turn is over."""
    free_pass: bool = False
    """A player may end the turn without laying or drawing (and may hold back cards)."""
    source: str = "000 page 2"

    @property
    def deck(self) -> tuple[Card, ...]:
        return tuple(c for c in DECK if c.colour in self.colours and c.number <= self.highest)

    @property
    def must_play(self) -> bool:
        """Whether a player who can lay a card has to (the simulator enforces it)."""
        return not self.free_pass

    @property
    def converging(self) -> bool:
        """Rows grow inward from cards laid out at both ends rather than out from an opener."""
        return len(self.laid_out) >= 2

    def hand_size(self, players: int) -> int:
        return self.deal[players]

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            if self.min_players == self.max_players:
                raise PresetError(f"{self.name} is played by exactly {self.min_players} players, not {players}")
            raise PresetError(f"{self.name} is played by {self.min_players} to {self.max_players} players, not {players}")

    def with_options(self, options: Mapping[str, object]) -> "Preset":
        """The preset with its documented overrides applied (only ``without`` for ``sixty``)."""
        unknown = set(options) - ({"without"} if self.name == "sixty" else set())
        if unknown:
            raise PresetError(f"preset {self.name} takes no option {', '.join(sorted(unknown))}")
        if "without" not in options:
            return self
        try:
            removed = Colour.parse(str(options["without"]))
        except ValueError:
            raise PresetError(f"option without must be a colour (R, Y, G or B), not {options['without']!r}") from None
        return dataclasses.replace(self, colours=tuple(c for c in COLOURS if c is not removed))


def _preset(name: str, de: str, en: str, description: str, **fields) -> Preset:
    return Preset(name=name, title=MappingProxyType({"de": de, "en": en}), description=description, **fields)


PRESETS: Mapping[str, Preset] = MappingProxyType(
    {
        p.name: p
        for p in (
            _preset(
                "classic",
                "Elfer raus! (Anleitung)",
                "Elfer raus! (manual)",
                "The Ravensburger manual: 80 cards, deal 20/20/15/12/10 to 2/3/4/5/6 players. "
                "The red 11 opens (else yellow, green, blue); the opener lays it alone. Rows open "
                "only with their 11 and grow without gaps down to 1 and up to 20. Lay at least one "
                "card if you can, as many as you like. If you cannot, draw up to 3 cards one at a "
                "time; the first that fits is laid at once and ends the turn.",
            ),
            _preset(
                "draw-one",
                "Nur eine Karte ziehen",
                "Draw one",
                "As classic, but a player who cannot lay a card draws only one (source 004).",
                draw_limit=1,
                source="004",
            ),
            _preset(
                "draw-continue",
                "Weiterlegen nach dem Ziehen",
                "Play on after drawing",
                "As classic, but after a fitting drawn card is laid the turn goes on: more "
                "cards from the hand may follow (source 003).",
                drawn_card_ends_turn=False,
                source="003",
            ),
            _preset(
                "free-pass",
                "Freiwillig passen",
                "Free pass",
                "As classic, with the house rule of optional play: a player may end the turn "
                "without laying or drawing, even when a card would fit (source 004).",
                free_pass=True,
                source="004",
            ),
            _preset(
                "junior",
                "Elfer raus! Junior",
                "Elfer raus! Junior",
                "The Junior game: cards 1 to 11 only; the 1 and the 11 of each colour lie out "
                "from the start; 5 cards each; each row grows up from its 1 and down from its 11 "
                "until they meet. The youngest begins. A player who cannot lay draws one card, "
                "lays it at once if it fits, and the turn ends (source 000 page 1).",
                highest=11,
                deal=MappingProxyType({n: 5 for n in range(2, 7)}),
                laid_out=(1, 11),
                openers=frozenset(),
                opening_card_starts=False,
                opening_ends_turn=False,
                draw_limit=1,
                source="000 page 1",
            ),
            _preset(
                "three-starts",
                "Drei mögliche Anfangszahlen",
                "Three starting numbers",
                "As classic, but a row may be opened by its 10, 11 or 12, and any such card may "
                "open the game. The player left of the dealer begins, and draws if they cannot "
                "open (source 003).",
                openers=frozenset({10, 11, 12}),
                opening_card_starts=False,
                source="003",
            ),
            _preset(
                "false-start",
                "Falscher Anfang",
                "False start",
                "As classic, but the 1 and the 20 of every colour lie out from the start; rows "
                "grow up from 1 and down from 20 until they meet; the 11 is an ordinary card. "
                "The first listed player begins (source 003).",
                laid_out=(1, 20),
                openers=frozenset(),
                opening_card_starts=False,
                opening_ends_turn=False,
                source="003",
            ),
            _preset(
                "any-start",
                "Beliebige Startkarte",
                "Any starting card",
                "As classic, but a start player chosen by lot lays any card; every other row "
                "must be opened with the same number (source 003).",
                openers=frozenset(range(1, 21)),
                openers_follow_first=True,
                source="003",
            ),
            _preset(
                "sixty",
                "Zu zweit mit 60 Karten",
                "Two players, 60 cards",
                "The manual's tip for two: one colour is removed (blue unless the option "
                "without names another), 60 cards, 20 each, stock 20; otherwise classic.",
                colours=(Colour.RED, Colour.YELLOW, Colour.GREEN),
                min_players=2,
                max_players=2,
            ),
        )
    }
)


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except (KeyError, TypeError):
        raise PresetError(f"unknown rules {name!r}: choose one of {', '.join(PRESETS)}") from None
