"""Short episodes written by hand for end-to-end tests: a few seconds of a classic game
with a hand, a mistake taken back, a camera bump, rendered as the synthetic table
renders whole games. Seeds are development seeds (``check_dev_seed``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.bench.referee import check_dev_seed
from companion.cards import Card
from companion.rules import get_preset
from companion.sim.episode import write_script
from companion.sim.layout import Table, TableLayout
from companion.sim.room import Bump, Room
from companion.sim.script import SETTLE, Script
from companion.vision import PLAY_AREA_MM

PLAYERS = ("Anna", "Ben")


def short_episode(out: Path, seed: int, layout: str = "piles", style: str = "reference") -> Path:
    """Anna opens with R11; Ben lays R12, the camera is knocked; Anna lays B12 on R12 (wrong
    colour), looks, takes it back, and lays R10 instead."""
    check_dev_seed(seed)
    preset = get_preset("classic")
    rng = np.random.default_rng(seed)
    layout_ = TableLayout(preset, PLAY_AREA_MM, rng, layout=layout, neatness=0.5)
    table = Table()
    script = Script(preset, PLAYERS, 10.0)
    script.opener = "Anna"
    script.truth.append({"event": "start", "players": list(PLAYERS), "rules": "classic", "t_ms": 0})
    script.still(table, 0.8)

    def lay(code: str, seat: int, on=None, opener=11) -> dict:
        pose = layout_.place(Card.parse(code), table, opener, on=on)
        event = {"event": "place", "card": code, "t_ms": script.lay(table, seat, pose)}
        return event, pose

    event, _ = lay("R11", 0)
    script.truth.append({**event, "player": "Anna"})
    script.press("next", {"event": "next"}, table)
    event, r12 = lay("R12", 1)
    script.truth.append(event)
    script.room = Room(bump=Bump(yaw_deg=0.8, tilt_x_deg=0.5, dx_mm=3.0))  # the camera is knocked
    script.bumps.append(script.room.bump)
    script.disturbances.append({"kind": "bump", "t_ms": script.t_ms, **script.room.bump.describe()})
    script.still(table, SETTLE)
    script.press("next", {"event": "next"}, table)
    event, wrong = lay("B12", 0, on=r12)
    script.truth.append({**event, "mistake": True, "error": "wrong_colour", "on": "R12"})
    script.still(table, 1.2)
    script.lift(table, 0, wrong)
    event, _ = lay("R10", 0)
    script.truth.append(event)
    script.press("next", {"event": "next"}, table)
    script.still(table, 0.5)
    write_script(out, script, seed, style=style, layout=layout)
    return out


def junior_to_the_end(out: Path, seed: int, style: str = "reference") -> Path:
    """A whole short game of the Junior rules (five cards each, the 1s and 11s lie out):
    Anna lays R2 to R6 in her five turns and wins; Ben lays Y4 (a skipped number), takes
    it back and draws, then lays R10, R9 and G2; at the end he lays his last three cards
    (B5, Y7, G8: 20 points) face up for the camera to count, and NEXT enters them."""
    from companion.sim.layout import CardPose

    check_dev_seed(seed)
    preset = get_preset("junior")
    rng = np.random.default_rng(seed)
    layout_ = TableLayout(preset, PLAY_AREA_MM, rng, layout="piles", neatness=0.5)
    table = Table([layout_.place(Card.parse(f"{c}{n}"), Table(), None) for c in "RYGB" for n in (1, 11)])
    script = Script(preset, PLAYERS, 10.0)
    script.truth.append({"event": "start", "players": list(PLAYERS), "rules": "junior", "t_ms": 0})
    script.still(table, 0.8)

    def lay(code: str, seat: int) -> CardPose:
        pose = layout_.place(Card.parse(code), table)
        event = {"event": "place", "card": code, "t_ms": script.lay(table, seat, pose)}
        script.truth.append(event)
        return pose

    def turn(code: str, seat: int) -> None:
        lay(code, seat)
        script.press("next", {"event": "next"}, table)

    turn("R2", 0)
    turn("R10", 1)
    turn("R3", 0)
    wrong = lay("Y4", 1)
    script.truth[-1].update(mistake=True, error="skipped_number")
    script.still(table, 1.2)
    script.lift(table, 1, wrong)
    script.press("draw", {"event": "draw"}, table)
    script.press("next", {"event": "next"}, table)
    turn("R4", 0)
    turn("R9", 1)
    turn("R5", 0)
    turn("G2", 1)
    lay("R6", 0)  # Anna's last card: she wins
    script.still(table, 1.0)
    for index, code in enumerate(("B5", "Y7", "G8")):  # Ben's hand, face up beside the rows
        pose = CardPose(Card.parse(code), (470.0, 100.0 + 120.0 * index), 0.0)
        script.lay(table, 1, pose)
    script.press("next", {"event": "penalty", "player": "Ben", "points": 20}, table, before=1.0)
    script.still(table, 1.0)
    write_script(out, script, seed, style=style, layout="piles")
    return out
