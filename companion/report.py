"""Human-readable reports for the command line, in German (default) or English."""

from __future__ import annotations

from .cards import Card, CardError, Colour
from .record import CheckedLine

TEXTS = {
    "de": {
        "start": "Spielbeginn", "place": "Anlegen", "draw": "Ziehen", "next": "Weiter", "undo": "Zurück",
        "penalty": "Strafpunkte", None: "?",
        "line": "Zeile", "turn": "am Zug", "rejected": "abgelehnt",
        "no_game": "Kein Spiel im Protokoll.",
        "rules": "Regeln", "over": "Spiel vorbei, gewonnen hat", "running": "Spiel läuft, am Zug",
        "not_begun": "Spiel noch nicht eröffnet",
        "hands": "Handkarten", "stock": "Nachziehstapel", "rows": "Reihen", "penalties": "Strafpunkte (Spiel)",
        "totals": "Gesamt (Sitzung)", "games": "Gewertete Spiele", "of": "von", "limit": "Grenze",
        "session_over": "Sitzung vorbei, gewonnen", "playoff": "Stechen zwischen", "none": "–",
        "summary_ok": "Alle {n} Zeilen in Ordnung.", "summary_bad": "{bad} von {n} Zeilen abgelehnt.",
        "sessions": "Sitzungen", "game_count": "Spiele", "turns": "Züge pro Spiel", "draws": "Gezogene Karten pro Spiel",
        "events": "Ereignisse pro Spiel", "penalty_spread": "Strafpunkte pro Verlierer", "redeals": "Neu gegeben (keine Elf)",
        "win_rate": "Gewinnanteil je Bot", "session": "Sitzung", "winners": "gewonnen",
        "written": "Protokolle geschrieben nach",
    },
    "en": {
        "start": "start", "place": "place", "draw": "draw", "next": "next", "undo": "undo",
        "penalty": "penalty", None: "?",
        "line": "line", "turn": "to play", "rejected": "rejected",
        "no_game": "No game in the record.",
        "rules": "Rules", "over": "Game over, won by", "running": "Game on, to play",
        "not_begun": "Game not opened yet",
        "hands": "Cards in hand", "stock": "Stock", "rows": "Rows", "penalties": "Penalties (game)",
        "totals": "Totals (session)", "games": "Scored games", "of": "of", "limit": "limit",
        "session_over": "Session over, won by", "playoff": "Deciding game between", "none": "–",
        "summary_ok": "All {n} lines accepted.", "summary_bad": "{bad} of {n} lines rejected.",
        "sessions": "Sessions", "game_count": "Games", "turns": "Turns per game", "draws": "Cards drawn per game",
        "events": "Events per game", "penalty_spread": "Penalty per loser", "redeals": "Redeals (no 11 dealt)",
        "win_rate": "Share of wins per bot", "session": "Session", "winners": "won by",
        "written": "Records written to",
    },
}


def _pairs(mapping: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in mapping.items()) or "–"


def check_line(line: CheckedLine, event: object, lang: str = "de") -> str:
    t = TEXTS[lang]
    what = t.get(line.kind, line.kind)
    if isinstance(event, dict) and isinstance(event.get("card"), str):
        try:
            what = f"{what} {Card.parse(event['card']).name(lang)}"
        except CardError:
            what = f"{what} {event['card']}"
    mark = "✓" if line.verdict.ok else "✗"
    text = f"{t['line']} {line.line:>4}  {mark} {what}"
    if not line.verdict.ok:
        return f"{text} – {t['rejected']} ({line.verdict.code.value}): {line.verdict.message(lang)}"
    return f"{text}" + (f" – {t['turn']}: {line.current}" if line.current else "")


def _row(row: object, lang: str) -> str:
    if row is None:
        return TEXTS[lang]["none"]
    runs = row if isinstance(row[0], list) else [row]
    return " / ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)


def check_summary(summary: dict, lines: int, rejected: int, lang: str = "de") -> str:
    t = TEXTS[lang]
    verdicts = t["summary_ok"].format(n=lines) if not rejected else t["summary_bad"].format(bad=rejected, n=lines)
    return f"{verdicts}\n{game_summary(summary, lang)}"


def game_summary(summary: dict, lang: str = "de") -> str:
    """Where a game and its session stand (the summary of ``elfer check`` and ``elfer replay``)."""
    t = TEXTS[lang]
    out: list[str] = []
    if summary["session"] is None:
        out.append(t["no_game"])
        return "\n".join(out)
    if summary["over"]:
        out.append(f"{t['over']}: {summary['winner']}")
    elif summary["current"]:
        out.append(f"{t['running']}: {summary['current']}")
    else:
        out.append(t["not_begun"])
    out.append(f"{t['rules']}: {summary['rules']}")
    out.append(f"{t['hands']}: {_pairs(summary['hands'])}")
    out.append(f"{t['stock']}: {summary['stock']}")
    rows = ", ".join(f"{Colour(c).label(lang)} {_row(r, lang)}" for c, r in summary["rows"].items())
    out.append(f"{t['rows']}: {rows}")
    out.append(f"{t['penalties']}: {_pairs(summary['penalties'])}")
    out.append(f"{t['totals']}: {_pairs(summary['totals'])}")
    session = summary["session"]
    planned = f" {t['of']} {session['games_planned']}" if session["games_planned"] else ""
    limit = f" ({t['limit']} {session['limit']})" if session["limit"] else ""
    out.append(f"{t['games']}: {summary['games']}{planned}{limit}")
    if session["playoff"]:
        out.append(f"{t['playoff']}: {', '.join(session['playoff'])}")
    elif session["over"]:
        out.append(f"{t['session_over']}: {', '.join(session['winners'])}")
    return "\n".join(out)


def _clock(t_ms: int, lang: str) -> str:
    seconds = f"{t_ms / 1000:7.1f} s"
    return seconds.replace(".", ",") if lang == "de" else seconds


def replay_verdict(judged, lang: str = "de") -> str:
    """One verdict of the referee loop: time, who, what, and the verdict."""
    t = TEXTS[lang]
    event = judged.event
    what = t.get(event.kind, event.kind)
    if event.kind == "start":
        what = f"{what}: {', '.join(event.players)} ({event.rules})"
    card = getattr(event, "card", None)
    if card is not None:
        what = f"{what} {card.name(lang)}"
    mark = "✓" if judged.verdict.ok else "✗"
    text = f"{_clock(judged.t_ms, lang)}  {judged.player or '–':10} {mark} {what}"
    if not judged.verdict.ok:
        return f"{text} – {t['rejected']} ({judged.verdict.code.value}): {judged.verdict.message(lang)}"
    return text + (f" – {t['turn']}: {judged.current}" if judged.current else "")


def replay_notice(notice, lang: str = "de") -> str:
    return f"{_clock(notice.t_ms, lang)}  {'':10} ! {notice.message(lang)}"


def simulation(stats: dict, results: list, lang: str = "de") -> str:
    t = TEXTS[lang]
    out = []
    for number, result in enumerate(results, start=1):
        totals = _pairs(result.totals)
        out.append(f"{t['session']} {number}: {totals} – {t['winners']}: {', '.join(result.winners)}")
    out.append(f"{t['sessions']}: {stats['sessions']}, {t['game_count']}: {stats['games']}")
    for key in ("turns", "draws", "events", "penalty_spread"):
        spread = stats[key]
        if spread:
            out.append(f"{t[key]}: min {spread['min']}, median {spread['median']}, "
                       f"mean {spread['mean']}, max {spread['max']}")
    out.append(f"{t['redeals']}: {stats['redeals']}")
    out.append(f"{t['win_rate']}: {_pairs(stats['win_rate'])}")
    return "\n".join(out)


READING_TEXTS = {
    "de": {"area": "Spielfeld erkannt", "no_area": "keine Marker, ganzes Bild", "cards": "Karten",
           "unknown": "unlesbar", "none": "keine Karten", "no_file": "diese Datei gibt es nicht",
           "not_picture": "kann sie nicht als Bild lesen", "cannot_write": "kann {path} nicht schreiben",
           "none_read": "keine Karte lesbar. Ein anderes Kartenspiel als das mitgelieferte? Dann erst mit "
                        "„elfer calibrate“ anlernen und mit --profile lesen.",
           "none_read_profile": "keine Karte lesbar. Passt das Profil zu diesem Kartenspiel und diesem Licht? "
                                "Sonst neu anlernen (elfer calibrate).",
           "no_profile": "das Profil {folder} gibt es nicht (ein Ordner, den „elfer calibrate --out“ angelegt hat)",
           "bad_profile": "das Profil {folder} ist nicht lesbar ({error}). Bitte das Kartenspiel neu anlernen: "
                          "elfer calibrate --images BILDER --out {folder}"},
    "en": {"area": "play area found", "no_area": "no markers, whole picture", "cards": "cards",
           "unknown": "unreadable", "none": "no cards", "no_file": "no such file",
           "not_picture": "cannot read it as a picture", "cannot_write": "cannot write {path}",
           "none_read": "no card readable. A deck other than the shipped one? Teach it with 'elfer calibrate' "
                        "first and read with --profile.",
           "none_read_profile": "no card readable. Does the profile fit this deck and this light? Otherwise "
                                "calibrate again (elfer calibrate).",
           "no_profile": "there is no profile {folder} (a folder made by 'elfer calibrate --out')",
           "bad_profile": "the profile {folder} cannot be read ({error}). Please teach the deck again: "
                          "elfer calibrate --images PICTURES --out {folder}"},
}


def _percent(value: float, lang: str) -> str:
    text = f"{100 * value:.1f} %"
    return text.replace(".", ",") if lang == "de" else text


def _seen_name(seen, lang: str) -> str:
    return READING_TEXTS[lang]["unknown"] if seen.card is None else seen.card.name(lang)


NONE_READ_HINT_CARDS = 3
"""Seen cards of which none was read, from which a picture's summary asks whether the
profile fits the deck: one unreadable card is a blurred or covered card, a whole table
of them is most often a deck the profile does not know."""


def reading(image: str, result, lang: str = "de", profile_given: bool = False) -> str:
    """One line per picture: ``t/0001.jpg: Spielfeld erkannt; 2 Karten: Rot 11 (99,8 %), unlesbar (41,0 %)``,
    and a hint when many cards were seen and none read (``profile_given``: not the shipped profile)."""
    t = READING_TEXTS[lang]
    cards = ", ".join(f"{_seen_name(seen, lang)} ({_percent(seen.confidence, lang)})" for seen in result.cards)
    count = f"{len(result.cards)} {t['cards']}: {cards}" if result.cards else t["none"]
    line = f"{image}: {t['area'] if result.area else t['no_area']}; {count}"
    if len(result.cards) >= NONE_READ_HINT_CARDS and all(seen.card is None for seen in result.cards):
        line += f" – {t['none_read_profile' if profile_given else 'none_read']}"
    return line


def draw_reading(frame, result, lang: str = "de"):
    """The picture with every seen card outlined and named, so a user can see why it misread."""
    import numpy as np
    from PIL import Image, ImageDraw

    from .fonts import bundled_font

    picture = Image.fromarray(frame[..., ::-1].copy())
    draw = ImageDraw.Draw(picture)
    font = bundled_font("DejaVuSans-Bold.ttf", max(14, frame.shape[0] // 40))
    colours = [(40, 220, 60) if seen.card is not None else (255, 150, 0) for seen in result.cards]
    outlines = [[tuple(float(v) for v in p) for p in np.asarray(seen.polygon)] for seen in result.cards]
    for points, colour in zip(outlines, colours):
        draw.line(points + points[:1], fill=colour, width=3)
        draw.ellipse([points[0][0] - 5, points[0][1] - 5, points[0][0] + 5, points[0][1] + 5], fill=colour)
    labels = [f"{_seen_name(seen, lang)} {_percent(seen.confidence, lang)}" for seen in result.cards]
    sizes = []
    for label in labels:
        left, top, right, bottom = draw.textbbox((0, 0), label, font=font)
        sizes.append((right - left + 2 * _LABEL_PAD[0], bottom - top + 2 * _LABEL_PAD[1]))
    boxes = label_boxes(outlines, sizes, (picture.width, picture.height))
    for label, colour, box in zip(labels, colours, boxes):
        draw.rectangle(box, fill=(0, 0, 0))
        draw.text((box[0] + _LABEL_PAD[0], box[1] + _LABEL_PAD[1]), label, fill=colour, font=font, anchor="lt")
    return np.asarray(picture)[..., ::-1].copy()


_LABEL_PAD = (3, 2)  # px around a label's text, inside its black box
_LABEL_GAP = 4  # px between a card's outline and its label beside it


def label_boxes(outlines, sizes, picture_size) -> list[tuple[int, int, int, int]]:
    """Where each card's label goes (x0, y0, x1, y1): above its outline, else just inside
    its top, else below it, at its left or its right end, whichever comes first that
    lies inside the picture and over no label placed before. Where no such place is
    left, the first one (a table crowded with cards may overlap labels, never lose one
    off the picture's edge)."""
    width, height = picture_size
    placed: list[tuple[int, int, int, int]] = []
    for points, (w, h) in zip(outlines, sizes):
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        left, top, right, bottom = min(xs), min(ys), max(xs), max(ys)
        tries = []
        for y in (top - h - _LABEL_GAP, top + _LABEL_GAP, bottom + _LABEL_GAP):
            for x in (left, right - w):
                x0 = int(round(min(max(x, 0), max(width - w, 0))))
                y0 = int(round(min(max(y, 0), max(height - h, 0))))
                tries.append((x0, y0, x0 + w, y0 + h))
        free = [box for box in tries if not any(_overlap(box, other) for other in placed)]
        placed.append(free[0] if free else tries[0])
    return placed


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
