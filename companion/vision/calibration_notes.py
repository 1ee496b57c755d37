"""What a calibration tells its user, in German (the default of ``elfer calibrate``) and
English: its report (:func:`report_text`) and its warnings and errors, each a
:class:`Note` (a kind and the values it names) that ``calibration.py`` makes and the
command prints in the language asked for. ``str(note)`` is English (the profile keeps
its warnings that way, and so do logs).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Colour

RETAKE = {"de": "diese neu aufnehmen: eine ganze Karte je Bild, flach, die Marker der Spielfläche im Bild",
          "en": "retake those: one whole card a picture, flat, with the play-area markers in view"}

TEMPLATES: dict[str, dict[str, str]] = {
    # the folder and its pictures
    "not_a_folder": {"de": "{folder}: eine Datei, kein Ordner mit Bildern",
                     "en": "{folder}: a file, not a folder of pictures"},
    "no_folder": {"de": "{folder}: diesen Ordner gibt es nicht", "en": "{folder}: no such folder"},
    "no_pictures": {"de": "{folder}: keine Bilder (.png oder .jpg) im Ordner",
                    "en": "{folder}: no pictures (.png or .jpg) in the folder"},
    "unreadable_format": {"de": "{folder}: Bilder als {formats}, die es nicht lesen kann: als JPEG speichern (auf "
                                "einem iPhone: Einstellungen > Kamera > Formate > Maximale Kompatibilität)",
                          "en": "{folder}: pictures saved as {formats}, which it cannot read: save them as JPEG (on "
                                "an iPhone: Settings > Camera > Formats > Most Compatible)"},
    "unreadable": {"de": "{path}: kein lesbares Bild", "en": "{path}: not a readable picture"},
    "no_picture": {"de": "{path}: diese Datei gibt es nicht", "en": "{path}: no such file"},
    "unnamed": {"de": "{folder}: kein Bild trägt den Namen seiner Karte (wie R11.png oder y3-2.jpg); "
                      "gefunden: {found}",
                "en": "{folder}: no picture is named by its card (like R11.png or y3-2.jpg); found {found}"},
    "no_pictures_given": {"de": "keine Bilder übergeben", "en": "no pictures given"},
    "laid_out_count": {"de": "{found} Karten gefunden, {expected} erwartet ({counts}): die Karten in der Reihenfolge "
                             "der Anleitung auslegen, jede ganz im Bild und einen Finger breit von der nächsten",
                       "en": "found {found} cards, expected {expected} ({counts}): lay the cards out in the order "
                             "asked, each whole in the picture and a finger's width from the next"},
    "not_colour": {"de": "{name}: kein Farbbild", "en": "{name}: not a colour picture"},
    # why a picture cannot be used
    "no_card": {"de": "keine Karte gefunden ({problem})", "en": "no card found ({problem})"},
    "nothing_card_shaped": {"de": "nichts Kartenförmiges darin", "en": "nothing card-shaped in it"},
    "no_card_edge": {"de": "keine Kante hebt sich ringsum vom Tisch ab",
                     "en": "no card-shaped outline stands out from the table all the way round"},
    "file_format": {"de": "ein Format, das es nicht lesen kann (als JPEG speichern)",
                    "en": "a format it cannot read (save it as JPEG)"},
    "black_and_white": {"de": "ein Schwarz-Weiß-Bild: es zeigt keine Farben (in Farbe aufnehmen)",
                        "en": "a black-and-white picture: it shows no colours (take it in colour)"},
    "all_black_and_white": {"de": "alle {count} Bilder sind schwarz-weiß: ohne Farben lernt es die Farben der Karten "
                                  "nicht; die Bilder in Farbe aufnehmen",
                            "en": "all {count} pictures are black and white: without colours it cannot learn the "
                                  "cards' colours; take the pictures in colour"},
    "no_print": {"de": "kein Druck auf der Karte zu sehen, ihre Zahlen heben sich nicht ab (zu dunkel, überstrahlt "
                       "oder keine Karte)",
                 "en": "no print visible on the card, its numerals do not stand out (too dark, washed out, or not "
                       "a card)"},
    # the calibration fails
    "cannot_use": {"de": "{lost}; " + RETAKE["de"], "en": "{lost}; " + RETAKE["en"]},
    "no_numerals": {"de": "keine Zahlen gefunden: die Karten verschiedener Zahlen sehen gleich aus",
                    "en": "no numerals found: the cards of different numbers look alike"},
    "no_full_colour": {"de": "keine Farbe hat alle 20 Karten: alle 20 Karten einer Farbe auslegen (der "
                             "vollständigsten, {colour}, fehlen {missing})",
                       "en": "no colour has all 20 cards: lay out all 20 cards of one colour (the most complete, "
                             "{colour}, lacks {missing})"},
    "no_full_colour_lost": {"de": "keine Farbe hat alle 20 Karten: alle 20 Karten einer Farbe auslegen (der "
                                  "vollständigsten, {colour}, fehlen {missing}); weggelassen: {lost}; " + RETAKE["de"],
                            "en": "no colour has all 20 cards: lay out all 20 cards of one colour (the most "
                                  "complete, {colour}, lacks {missing}); left out: {lost}; " + RETAKE["en"]},
    # warnings
    "left_out": {"de": "{lost}: weggelassen", "en": "{lost}: left out"},
    "no_colour": {"de": "kein Bild einer {colour_adj}en Karte: {colour_adj}e Karten werden als unlesbar gemeldet "
                        "(ihre 11 dazulegen)",
                  "en": "no picture of a {colour} card: {colour} cards will be read as unknown (add its 11)"},
    "no_eleven": {"de": "{colour} hat kein Bild ihrer 11 (die Farbe wurde an ihren anderen Karten gelernt)",
                  "en": "{colour} has no picture of its 11 (its ink was learned from other cards)"},
    "no_numeral": {"de": "keine Zahl gelernt für {numbers}: diese Zahlen werden als unlesbar gemeldet",
                   "en": "no numeral for {numbers}: these numbers will be read as unknown"},
    "glare": {"de": "Blendung oder ungleiches Licht auf {names}: diese Bilder neu aufnehmen, falls Karten falsch "
                    "gelesen werden",
              "en": "glare or uneven light on {names}: retake these pictures if cards misread"},
    "reads_too_few": {"de": "das gelernte Profil liest nur {right} seiner {total} eigenen Bilder richtig (nicht "
                            "{names}): so liest es keinen Tisch; " + RETAKE["de"],
                      "en": "the profile learned reads only {right} of its own {total} pictures right (not {names}): "
                            "it would read no table; " + RETAKE["en"]},
    "inks_alike": {"de": "die gelernten Farben {first} und {second} sehen gleich aus (ihre Farbtöne liegen {apart}° "
                         "auseinander): zeigt {names} wirklich eine {suspect_adj}e Karte? Umbenennen oder neu "
                         "aufnehmen",
                   "en": "the {first} and the {second} ink learned look alike (their hues lie {apart} degrees apart): "
                         "is {names} really a picture of a {suspect} card? Rename it or retake it"},
    "misread": {"de": "liest nur {right} seiner {total} eigenen Bilder richtig (nicht {names}): diese neu aufnehmen",
                "en": "reads only {right} of its own {total} pictures right (not {names}): retake those"},
    "poor_beside_good": {"de": "{name} ist {poor_word}: seine Zahl wurde an den anderen Bildern dieser Zahl gelernt",
                         "en": "{name} is {poor_word}: its numeral was learned from the other pictures of its number"},
    "poor_only": {"de": "{poor}: {names}; ihre Zahlen wurden trotzdem an ihnen gelernt: neu aufnehmen, {how}, sonst "
                        "werden diese Zahlen vielleicht falsch gelesen",
                  "en": "{poor}: {names}; their numerals were learned from them all the same: retake them, {how}, "
                        "or those numbers may be misread"},
    "odd_numeral": {"de": "die {number} in {names} sieht nicht aus wie die anderen {number}en: weggelassen",
                    "en": "the {number} in {names} does not look like the other {number}s: left out"},
}

# A poor picture: what it is in a word, and in a few, and how to retake it.
POOR = {
    "blurred": {"de": ("unscharf", "unscharf (verwackelt oder nicht scharf gestellt)", "ruhig gehalten"),
                "en": ("blurred", "blurred (shaken or out of focus)", "held still")},
    "washed out": {"de": ("überstrahlt", "überstrahlt (Blendung oder zu viel Licht)", "ohne Blendung"),
                   "en": ("washed out", "washed out (glare or too much light)", "out of the glare")},
    "poorly outlined": {"de": ("schlecht umrissen", "schlecht umrissen (die Kanten der Karte wurden nicht gefunden: "
                               "ihr Druck liegt nicht, wo er bei den anderen Karten liegt)",
                               "auf einem schlichten Teil des Tisches"),
                        "en": ("poorly outlined", "poorly outlined (the card's edges were not found: its print is "
                               "not where the other cards' is)", "on a plain part of the table")},
    "unlike": {"de": ("den anderen Karten unähnlich", "den anderen Karten unähnlich (vielleicht ist nicht die Karte "
                      "gefunden, sondern ein Stück Tisch)", "ganz im Bild, auf einem schlichten Teil des Tisches"),
               "en": ("unlike the other cards", "unlike the other cards (perhaps a piece of the table was found, "
                      "not the card)", "whole in view, on a plain part of the table")},
}

MOST_NAMED = 8  # pictures named in one note; more are "..."


@dataclass(frozen=True)
class Note:
    """One thing a calibration tells: its ``kind`` (a key of ``TEMPLATES``) and the values
    it names: text, numbers, a :class:`~companion.cards.Colour`, a poor picture's kind
    (``poor``), names of pictures (``names``: a tuple), numbers as ranges (``numbers``,
    ``missing``), other notes, or pictures with why they cannot be used (``lost``: a
    tuple of (name, note) pairs)."""

    kind: str
    values: tuple[tuple[str, object], ...] = ()

    def text(self, lang: str = "en") -> str:
        fields = {}
        for key, value in self.values:
            if isinstance(value, Note):
                fields[key] = value.text(lang)
            elif isinstance(value, Colour):
                fields[key] = value.name.lower() if lang == "en" else value.label("de")
                fields[f"{key}_adj"] = value.name.lower() if lang == "en" else value.label("de").lower()
            elif key == "poor":
                fields["poor_word"], fields[key], fields["how"] = POOR[value][lang]
            elif key in ("numbers", "missing"):
                fields[key] = ranges(value, lang)
            elif key == "names":
                fields[key] = _listed(value, ", ")
            elif key == "lost":
                fields[key] = _listed([f"{name}: {why.text(lang)}" for name, why in value], "; ")
            else:
                fields[key] = value
        return TEMPLATES[self.kind][lang].format(**fields)

    def __str__(self) -> str:
        return self.text("en")


def _listed(items, separator: str) -> str:
    """The first ``MOST_NAMED`` items, and "..." where there are more."""
    return separator.join(items[:MOST_NAMED]) + (" ..." if len(items) > MOST_NAMED else "")


def note(kind: str, **values) -> Note:
    if kind not in TEMPLATES:
        raise KeyError(f"no such calibration note: {kind}")
    return Note(kind, tuple((key, tuple(value) if isinstance(value, list) else value) for key, value in values.items()))


def ranges(numbers, lang: str = "en") -> str:
    """``1-3, 5, 7-9``: numbers in runs."""
    numbers, parts = sorted(numbers), []
    for n in numbers:
        if parts and n == parts[-1][1] + 1:
            parts[-1][1] = n
        else:
            parts.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in parts) or ("keine" if lang == "de" else "none")


def report_text(report, lang: str, max_picture_side: int) -> str:
    """A calibration's report (``calibration.CalibrationReport``) for people: what it learned,
    what it lacks, and its warnings."""
    t = REPORT_TEXTS[lang]
    left_out = f" ({len(report.left_out)} {t['left_out']}: {', '.join(report.left_out)})" if report.left_out else ""
    x0, y0, x1, y1 = (_decimal(v, lang) for v in report.numeral_box_mm)
    found_by = ", ".join(f"{t['found_by_kinds'].get(k, k)} {v}" for k, v in sorted(report.found_by.items()))
    lines = [t["deck"].format(deck=report.deck, pictures=report.pictures, left_out=left_out,
                              faces=t["inverse"] if report.inverse else t["paper"]),
             t["numerals"].format(ranges=ranges(report.numbers, lang), count=len(report.numbers)),
             t["inks"].format(inks=", ".join(_colour_names(report.colours, lang)) or ranges([], lang)),
             t["box"].format(x0=x0, x1=x1, y0=y0, y1=y1),
             t["found"].format(found_by=found_by, turned=len(report.turned), straightened=len(report.straightened)),
             t["self_test"].format(right=report.self_test[0], total=report.self_test[1])]
    if report.scaled_down:
        lines.append(t["scaled"].format(side=max_picture_side, count=len(report.scaled_down)))
    lines += [f"  {t['warning']}: {w.text(lang)}" for w in report.warnings]
    return "\n".join(lines)


REPORT_TEXTS = {
    "de": {"deck": "Deck {deck!r}: {pictures} Bilder{left_out}, {faces}", "left_out": "weggelassen",
           "inverse": "Farbfläche mit Zahlen in Papierfarbe (invers)", "paper": "Zahlen auf Papier",
           "numerals": "  gelernte Zahlen: {ranges} ({count} von 20)", "inks": "  gelernte Farben: {inks}",
           "box": "  Zahlenfeld: x {x0}-{x1} mm, y {y0}-{y1} mm",
           "found": "  Karten gefunden durch: {found_by}; kopfüber: {turned}; Umrisse gerade gerückt: {straightened}",
           "found_by_kinds": {"finder": "Kanten", "outline": "Umriss", "search": "Zahlensuche", "given": "vorgegeben"},
           "self_test": "  liest die eigenen Bilder: {right} von {total} richtig",
           "scaled": "  auf {side} px an der langen Seite verkleinert: {count} Bilder", "warning": "Warnung",
           "written": "Profil geschrieben nach {out}",
           "not_written": "kann das Profil nicht nach {out} schreiben ({error})"},
    "en": {"deck": "deck {deck!r}: {pictures} pictures{left_out}, {faces}", "left_out": "left out",
           "inverse": "inverse (colour fill) faces", "paper": "paper faces",
           "numerals": "  numerals learned: {ranges} ({count} of 20)", "inks": "  inks learned: {inks}",
           "box": "  numeral box: x {x0}-{x1} mm, y {y0}-{y1} mm",
           "found": "  cards found by: {found_by}; upside down: {turned}; outlines straightened: {straightened}",
           "found_by_kinds": {},
           "self_test": "  reading its own pictures: {right} of {total} right",
           "scaled": "  scaled down to {side} px on their long side: {count} pictures", "warning": "warning",
           "written": "profile written to {out}",
           "not_written": "cannot write the profile to {out} ({error})"},
}


def _colour_names(letters: list[str], lang: str) -> list[str]:
    """The inks as German names (``Rot``), or in English as the notation's letters (``R``)."""
    return [Colour.parse(letter).label("de") for letter in letters] if lang == "de" else list(letters)


def _decimal(value: float, lang: str) -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "de" else text


__all__ = ["MOST_NAMED", "Note", "POOR", "REPORT_TEXTS", "RETAKE", "TEMPLATES", "note", "ranges",
           "report_text"]
