"""What the loop tells the world, through one narrow interface.

The loop calls an :class:`Outputs` for every verdict, every notice and the state after
each. The device implements it with a screen, a buzzer and the journal; a replay with
JSON lines or a readable log (``report.py``). Nothing here knows which.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import IO, Protocol

from ..record import event_to_dict
from ..rules import Event, Verdict
from .penalties import PenaltyView
from .texts import notice_message


@dataclass(frozen=True)
class Judged:
    """One event the referee judged."""

    t_ms: int  # when it happened at the table: the card touched it, the button was pressed
    judged_ms: int  # when the verdict was given (the frame or press that decided it)
    source: str  # "camera", "button", or "setup" (the game's start)
    event: Event
    verdict: Verdict
    player: str | None  # whose turn it was when it happened
    current: str | None  # whose turn it is after the verdict

    def to_json(self, lang: str = "de") -> dict:
        return {"t_ms": self.t_ms, "judged_ms": self.judged_ms, "source": self.source,
                "event": event_to_dict(self.event), "ok": self.verdict.ok,
                "error": None if self.verdict.ok else self.verdict.code.value,
                "message": self.verdict.message(lang), "current": self.current}


@dataclass(frozen=True)
class Notice:
    """Something the table should know that is not a verdict: a question, a desync, ..."""

    t_ms: int
    kind: str  # a key of ``texts.NOTICES``
    params: dict = field(default_factory=dict)

    def message(self, lang: str = "de") -> str:
        return notice_message(self.kind, self.params, lang)

    def to_json(self, lang: str = "de") -> dict:
        return {"t_ms": self.t_ms, "notice": self.kind, "message": self.message(lang), **self.params}


@dataclass(frozen=True)
class GameView:
    """The state after an event, as a screen shows it."""

    t_ms: int
    current: str | None
    hands: dict[str, int]
    stock: int
    rows: dict[str, object]
    drawn: int
    over: bool
    winner: str | None
    alert: str | None  # the error code of a rejection still in force
    question: tuple[str, ...] | None  # the cards asked about ("Rot 12 darunter?")
    draw_limit: int = 3  # how many cards a turn may draw (the preset's)
    penalty: PenaltyView | None = None  # penalty points being entered, once the game is over
    penalties: dict[str, int] = field(default_factory=dict)  # the points entered so far


class Outputs(Protocol):
    def verdict(self, judged: Judged) -> None: ...
    def notice(self, notice: Notice) -> None: ...
    def state(self, view: GameView) -> None: ...


class Journal:
    """The accepted events with their times: the game record as the companion keeps it."""

    def __init__(self) -> None:
        self.lines: list[dict] = []

    def verdict(self, judged: Judged) -> None:
        if judged.verdict.ok:
            if judged.event.kind == "start" and self.lines and self.lines[-1]["event"] == "start":
                self.lines.pop()  # a start nothing followed (set up anew before the first card)
            self.lines.append({**event_to_dict(judged.event), "t_ms": judged.t_ms})

    def notice(self, notice: Notice) -> None:
        pass

    def state(self, view: GameView) -> None:
        pass

    def write(self, out: IO[str]) -> None:
        for line in self.lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


class JsonLines:
    """One JSON line per verdict and per notice (``elfer replay --json``)."""

    def __init__(self, out: IO[str], lang: str = "de"):
        self.out, self.lang = out, lang

    def verdict(self, judged: Judged) -> None:
        self.out.write(json.dumps(judged.to_json(self.lang), ensure_ascii=False) + "\n")

    def notice(self, notice: Notice) -> None:
        self.out.write(json.dumps(notice.to_json(self.lang), ensure_ascii=False) + "\n")

    def state(self, view: GameView) -> None:
        pass


class Fanout:
    """Several outputs as one."""

    def __init__(self, *outputs: Outputs):
        self.outputs = outputs

    def verdict(self, judged: Judged) -> None:
        for output in self.outputs:
            output.verdict(judged)

    def notice(self, notice: Notice) -> None:
        for output in self.outputs:
            output.notice(notice)

    def state(self, view: GameView) -> None:
        for output in self.outputs:
            output.state(view)
