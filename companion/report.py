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
    out = [t["summary_ok"].format(n=lines) if not rejected else t["summary_bad"].format(bad=rejected, n=lines)]
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
           "not_picture": "kann sie nicht als Bild lesen", "cannot_write": "kann {path} nicht schreiben"},
    "en": {"area": "play area found", "no_area": "no markers, whole picture", "cards": "cards",
           "unknown": "unreadable", "none": "no cards", "no_file": "no such file",
           "not_picture": "cannot read it as a picture", "cannot_write": "cannot write {path}"},
}


def _percent(value: float, lang: str) -> str:
    text = f"{100 * value:.1f} %"
    return text.replace(".", ",") if lang == "de" else text


def _seen_name(seen, lang: str) -> str:
    return READING_TEXTS[lang]["unknown"] if seen.card is None else seen.card.name(lang)


def reading(image: str, result, lang: str = "de") -> str:
    """One line per picture: ``t/0001.jpg: Spielfeld erkannt; 2 Karten: Rot 11 (99,8 %), unlesbar (41,0 %)``."""
    t = READING_TEXTS[lang]
    cards = ", ".join(f"{_seen_name(seen, lang)} ({_percent(seen.confidence, lang)})" for seen in result.cards)
    count = f"{len(result.cards)} {t['cards']}: {cards}" if result.cards else t["none"]
    return f"{image}: {t['area'] if result.area else t['no_area']}; {count}"


def draw_reading(frame, result, lang: str = "de"):
    """The picture with every seen card outlined and named, so a user can see why it misread."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont

    from .sim.deck import FONT_DIR

    picture = Image.fromarray(frame[..., ::-1].copy())
    draw = ImageDraw.Draw(picture)
    font = ImageFont.truetype(str(FONT_DIR / "DejaVuSans-Bold.ttf"), max(14, frame.shape[0] // 40))
    for seen in result.cards:
        colour = (40, 220, 60) if seen.card is not None else (255, 150, 0)
        points = [tuple(float(v) for v in p) for p in np.asarray(seen.polygon)]
        draw.line(points + points[:1], fill=colour, width=3)
        draw.ellipse([points[0][0] - 5, points[0][1] - 5, points[0][0] + 5, points[0][1] + 5], fill=colour)
        label = f"{_seen_name(seen, lang)} {_percent(seen.confidence, lang)}"
        x = min(p[0] for p in points)
        y = min(p[1] for p in points) - font.size - 6
        box = draw.textbbox((x, y), label, font=font)
        draw.rectangle([box[0] - 3, box[1] - 2, box[2] + 3, box[3] + 2], fill=(0, 0, 0))
        draw.text((x, y), label, fill=colour, font=font)
    return np.asarray(picture)[..., ::-1].copy()
