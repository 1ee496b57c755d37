"""What a family does besides the moves, in scripted episodes: two cards in one reach and the
answer to the companion's question, the answer to a skipped-number mistake, NEXT pressed while
the hand still leaves, and disturbances that are not moves (``sim.script.Behaviours``).

Mostly the scripts themselves (no pixels, fast); one small rendered episode for meta.json and
the pictures.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card
from companion.cli import main
from companion.record import parse_event
from companion.rules import Referee
from companion.rules.presets import get_preset
from companion.sim.episode import write_episode
from companion.sim.room import DISTURBANCES
from companion.sim.script import BETWEEN, FAMILY, PLAIN, Behaviours, play_script
from companion.vision.markers import PLAY_AREA_MM

NAMES = ("Anna", "Ben", "Cem", "Dana")
FPS = 10.0
CALM = replace(FAMILY, **{kind: 0.0 for kind in DISTURBANCES})  # the family's behaviours, no disturbances


def script_of(rules: str, players: int, seed: int, mistakes: float = 0.0, layout: str = "piles",
              behaviours: Behaviours = FAMILY, fps: float = FPS):
    script, _ = play_script(get_preset(rules), NAMES[:players], seed, fps, PLAY_AREA_MM, mistake_rate=mistakes,
                            layout=layout, behaviours=behaviours)
    return script


def games_before(truth: list[dict]):
    """(index, line, the referee's game before that line) for each line of a truth file."""
    referee = Referee()
    for index, line in enumerate(truth):
        yield index, line, referee.game
        referee.push(parse_event(line))


def frame_at(script, t_ms: int):
    index = round(t_ms * script.fps / 1000)
    assert round(index * 1000 / script.fps) == t_ms, "not a frame's time"
    return index, script.frames[index]


def codes(state) -> list[str]:
    return [pose.card.code for pose in state.table]


# ------------------------------------------------------------------ nothing changes unless asked
def _digest(script) -> tuple[int, str]:
    """The frames, presses and truth of a script, as recorded before the behaviours existed."""
    digest = hashlib.sha256()
    pose = lambda p: (p.card.code, round(p.centre[0], 6), round(p.centre[1], 6), round(p.angle, 6),  # noqa: E731
                      p.upside_down)
    for state in script.frames:
        hand = None
        if state.hand is not None:
            h = state.hand
            hand = (h.seat, round(h.seat_angle, 9), round(h.target[0], 6), round(h.target[1], 6), round(h.reach, 9),
                    None if h.holding is None else pose(h.holding))
        digest.update(repr(([pose(p) for p in state.table], hand)).encode())
    digest.update(json.dumps(script.buttons).encode())
    digest.update(json.dumps(script.truth).encode())
    return len(script.frames), digest.hexdigest()[:16]


@pytest.mark.parametrize("rules, players, seed, mistakes, layout, fps, expected", [
    ("classic", 4, 3, 0.1, "piles", 10.0, (2297, "8e4e48c8df2f216d")),
    ("junior", 2, 2, 0.3, "piles", 2.0, (354, "244a20f4b09a1e8c")),
    ("classic", 3, 7, 0.2, "side_by_side", 10.0, (3255, "2c39991988bc8d6e")),
])
def test_plain_scripts_are_what_they_were(rules, players, seed, mistakes, layout, fps, expected):
    """play_script's default is PLAIN, and PLAIN scripts the same frames, presses and truth as before."""
    script = script_of(rules, players, seed, mistakes, layout, behaviours=PLAIN, fps=fps)
    assert _digest(script) == expected
    assert all(state.room is None for state in script.frames)
    assert script.two_in_one == script.early_next == 0 and not script.disturbances
    assert _digest(script_of(rules, players, seed, mistakes, layout, behaviours=Behaviours(
        two_in_one=0, answers=False, early_next=0, nudge=0, bump=0, lamp=0, glare=0, cup=0), fps=fps)) == expected
    default, _ = play_script(get_preset(rules), NAMES[:players], seed, fps, PLAY_AREA_MM, mistake_rate=mistakes,
                             layout=layout)
    assert _digest(default) == expected


def test_the_bots_make_the_same_moves_whatever_the_family_does():
    for seed in (1, 2):
        plain, family = script_of("classic", 3, seed, behaviours=PLAIN), script_of("classic", 3, seed)
        moves = lambda s: [{k: v for k, v in line.items() if k != "t_ms"} for line in s.truth]  # noqa: E731
        assert moves(plain) == moves(family)


def test_disturbances_are_no_game_events():
    """Switching the disturbances off changes the times, not the events or the presses."""
    for rules, players, seed in (("classic", 3, 1), ("classic", 4, 3), ("junior", 2, 2)):
        disturbed = script_of(rules, players, seed, mistakes=0.2)
        calm = script_of(rules, players, seed, mistakes=0.2, behaviours=CALM)
        assert disturbed.disturbances and not calm.disturbances
        untimed = lambda items: [{k: v for k, v in item.items() if k != "t_ms"} for item in items]  # noqa: E731
        assert untimed(disturbed.truth) == untimed(calm.truth)
        assert untimed(disturbed.buttons) == untimed(calm.buttons)
        end = disturbed.t_ms
        for entry in disturbed.disturbances:
            assert entry["kind"] in DISTURBANCES and 0 < entry["t_ms"] < end
            assert entry.get("until_ms", end) > entry["t_ms"]
        # while a disturbance happens (and the table settles after it), no card goes down and nothing is pressed
        lasts = {"nudge": 1800, "bump": 800}  # a hand comes and goes; a camera swings; the rest: at once
        busy = [(e["t_ms"], e["t_ms"] + lasts.get(e["kind"], 500)) for e in disturbed.disturbances]
        busy += [(e["until_ms"], e["until_ms"] + 500) for e in disturbed.disturbances if "until_ms" in e]
        moments = [line["t_ms"] for line in disturbed.truth[1:] if line["event"] != "penalty"]
        moments += [press["t_ms"] for press in disturbed.buttons]
        assert not [t for t in moments for start, stop in busy if start <= t < stop]


# ------------------------------------------------------------------ two cards in one reach
TWO_IN_ONE = [("classic", 3, 1, "piles"), ("classic", 4, 3, "piles"), ("classic", 3, 7, "side_by_side")]


@pytest.mark.parametrize("rules, players, seed, layout", TWO_IN_ONE)
def test_two_cards_in_one_reach_are_two_places_and_a_yes(rules, players, seed, layout):
    script = script_of(rules, players, seed, mistakes=0.2, layout=layout)
    truth, buttons = script.truth, script.buttons
    yes = [press for press in buttons if press.get("answer") is True]
    assert script.two_in_one == len(yes) > 0
    assert all(press["button"] == "next" for press in yes)
    pairs = {}
    for press in yes:
        last = max(i for i, line in enumerate(truth) if line["t_ms"] < press["t_ms"])
        first, second = truth[last - 1], truth[last]
        assert first["event"] == second["event"] == "place"
        assert not first.get("mistake") and not second.get("mistake")
        t1, t2 = first["t_ms"], second["t_ms"]
        assert t2 - t1 == round(BETWEEN * script.fps) * 1000 / script.fps
        pairs[last - 1] = (Card.parse(first["card"]), Card.parse(second["card"]))
        # answered after the hand has left and the table settled, before anything else happens
        assert 1200 <= press["t_ms"] - t2 <= 2000
        later = [line["t_ms"] for line in truth[last + 1:] if line["event"] != "penalty"]
        assert not later or later[0] > press["t_ms"]
        assert not [p for p in buttons if t2 < p["t_ms"] < press["t_ms"]]
        # in the pictures: one hand brings both, the second card on top of the first
        _, down = frame_at(script, t1)
        assert codes(down)[-1] == first["card"] and second["card"] not in codes(down) and down.hand is not None
        assert down.hand.holding is not None and down.hand.holding.card.code == second["card"]
        _, then = frame_at(script, t2)
        assert codes(then)[-2:] == [first["card"], second["card"]] and then.hand is not None
        # on a still table (a press is the moment of a frame, which may be the first of the next reach,
        # its hand still beyond the picture's edge)
        index, asked = frame_at(script, press["t_ms"])
        assert script.frames[index - 1].hand is None and (asked.hand is None or asked.hand.reach < 0.1)
    # the companion, seeing only the second card, asks about the first: the reading just before it
    checked = 0
    for index, _, game in games_before(truth):
        if index in pairs:
            first_card, second_card = pairs[index]
            assert game.hidden_reading(second_card) == (first_card,)
            checked += 1
    assert checked == len(yes)


def test_without_two_in_one_no_card_is_hidden():
    script = script_of("classic", 3, 1, mistakes=0.2, behaviours=replace(FAMILY, two_in_one=0.0))
    assert script.two_in_one == 0 and not [p for p in script.buttons if p.get("answer") is True]


# ------------------------------------------------------------------ the answer to a skipped number
@pytest.mark.parametrize("rules, players, seed", [("classic", 3, 1), ("classic", 2, 4), ("junior", 2, 2)])
def test_a_skipped_number_that_one_card_would_explain_is_answered_no_while_it_lies_there(rules, players, seed):
    script = script_of(rules, players, seed, mistakes=0.4, behaviours=CALM)
    truth = script.truth
    no = [press for press in script.buttons if press.get("answer") is False]
    assert all(press["button"] == "back" for press in no)
    asked = 0
    for index, line, game in games_before(truth):
        if line.get("error") != "skipped_number":
            continue
        card = Card.parse(line["card"])
        reading = game.hidden_reading(card)
        following = truth[index + 1]["t_ms"]
        answers = [press for press in no if line["t_ms"] < press["t_ms"] < following]
        assert len(answers) == (1 if reading else 0), (line, reading)
        if not reading:
            continue
        asked += 1
        frame, state = frame_at(script, answers[0]["t_ms"])
        assert line["card"] in codes(state) and state.hand is None  # the card still lies there, the hand gone
        # ... and is lifted off afterwards, before the next event
        lifted = next(i for i in range(frame, len(script.frames)) if line["card"] not in codes(script.frames[i]))
        assert frame < lifted and lifted * 1000 / script.fps < following
    assert asked == len(no) > 0


def test_without_answers_a_skipped_number_gets_no_press():
    script = script_of("classic", 3, 1, mistakes=0.4, behaviours=replace(CALM, answers=False))
    assert script.mistakes and not [press for press in script.buttons if press.get("answer") is False]


# ------------------------------------------------------------------ NEXT while the hand leaves
@pytest.mark.parametrize("rules, players, seed", [("classic", 3, 1), ("classic", 4, 3)])
def test_next_pressed_while_the_hand_leaves(rules, players, seed):
    script = script_of(rules, players, seed, mistakes=0.1)
    truth = script.truth
    early = 0
    for index, line in enumerate(truth):
        if line["event"] != "next" or line.get("mistake"):
            continue
        at, state = frame_at(script, line["t_ms"])
        if script.frames[at - 1].hand is None:  # pressed on a still table (the next reach may begin)
            assert state.hand is None or state.hand.reach < 0.1
            continue
        early += 1
        # the hand that just laid a card of this turn, on its way out, carrying nothing
        assert truth[index - 1]["event"] == "place" and truth[index - 1]["t_ms"] < line["t_ms"]
        assert state.hand.holding is None and 0 < state.hand.reach < 1
        assert codes(state)[-1] == truth[index - 1]["card"]
    assert early == script.early_next > 0
    none = script_of(rules, players, seed, mistakes=0.1, behaviours=replace(FAMILY, early_next=0.0))
    assert none.early_next == 0
    assert all(none.frames[frame_at(none, line["t_ms"])[0] - 1].hand is None
               for line in none.truth if line["event"] == "next")


# ------------------------------------------------------------------ a rendered episode
RESTLESS = Behaviours(nudge=2.0, bump=1.5, lamp=1.5, glare=1.5, cup=2.0)  # every kind, several times


@pytest.fixture(scope="module")
def restless(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("family") / "ep"
    write_episode(out, get_preset("junior"), NAMES[:2], 5, fps=2.0, mistakes=0.2, resolution=(320, 180),
                  behaviours=RESTLESS)
    return out


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_meta_json_lists_what_was_injected(restless):
    meta = json.loads((restless / "meta.json").read_text(encoding="utf-8"))
    script = script_of("junior", 2, 5, mistakes=0.2, behaviours=RESTLESS, fps=2.0)
    assert _lines(restless / "truth.jsonl") == script.truth and meta["frames"] == len(script.frames)
    without_cameras = [{k: v for k, v in entry.items() if k != "camera"} for entry in meta["disturbances"]]
    assert without_cameras == json.loads(json.dumps(script.disturbances))
    assert {entry["kind"] for entry in meta["disturbances"]} == set(DISTURBANCES)
    assert meta["two_in_one_reach"] == script.two_in_one
    assert meta["early_next"] == script.early_next
    assert meta["answers"] == sum(1 for press in _lines(restless / "buttons.jsonl") if "answer" in press)
    end = round((meta["frames"] - 1) * 1000 / meta["fps"])
    lamps = [entry["on"] for entry in meta["disturbances"] if entry["kind"] == "lamp"]
    assert lamps == [i % 2 == 0 for i in range(len(lamps))]  # switched on, off, on, ...
    for entry in meta["disturbances"]:
        assert isinstance(entry["t_ms"], int) and 0 < entry["t_ms"] <= end
        if entry["kind"] == "bump":  # the camera it left is a whole camera, and still frames all four markers
            assert set(entry["camera"]) == set(meta["scenery"]["camera"])
        if entry["kind"] == "cup":
            assert entry["prop"] in ("cup", "sleeve") and entry["until_ms"] > entry["t_ms"]


def test_the_truth_of_a_disturbed_episode_still_checks(restless, capsys):
    truth = _lines(restless / "truth.jsonl")
    capsys.readouterr()
    assert main(["check", str(restless / "truth.jsonl"), "--json"]) == 1
    verdicts = [json.loads(line) for line in capsys.readouterr().out.splitlines()][:-1]
    assert [not v["ok"] for v in verdicts] == [bool(line.get("mistake")) for line in truth]


def _frame(folder: Path, index: int) -> np.ndarray:
    return cv2.imread(str(folder / "frames" / f"{index:06d}.jpg")).astype(np.float32)


def test_a_bump_and_a_lamp_change_the_whole_picture_a_cup_a_part_of_it(restless):
    meta = json.loads((restless / "meta.json").read_text(encoding="utf-8"))
    script = script_of("junior", 2, 5, mistakes=0.2, behaviours=RESTLESS, fps=2.0)
    noise = np.median([np.abs(_frame(restless, i) - _frame(restless, i - 1)).mean()
                       for i in range(1, len(script.frames)) if script.frames[i] == script.frames[i - 1]][:20])
    for entry in meta["disturbances"]:
        index, state = frame_at(script, entry["t_ms"])
        settled = index
        while script.frames[settled].room.shake_px:  # a knocked camera settles first
            settled += 1
        before, after = _frame(restless, index - 1), _frame(restless, settled)
        changed = np.abs(after - before).max(axis=2) > 40
        if entry["kind"] in ("bump", "lamp"):
            assert np.abs(after - before).mean() > 2 * noise, entry
        elif entry["kind"] == "cup":
            assert 0.002 < changed.mean() < 0.2, entry  # a cup or a sleeve: a part of the picture
        assert script.frames[index - 1].table == state.table or entry["kind"] == "nudge"


# ------------------------------------------------------------------ the command
def test_synth_episode_plain_switches_the_behaviours_off(tmp_path, monkeypatch, capsys):
    from companion.sim import episode

    asked = []

    def fake(out, preset, players, seed, **options):
        asked.append(options["behaviours"])
        return {"frames": 1, "mistakes": 0, "two_in_one_reach": 0, "disturbances": [], "style": "reference"}

    monkeypatch.setattr(episode, "write_episode", fake)
    for extra in ([], ["--plain"]):
        assert main(["synth", "episode", "--out", str(tmp_path / "ep"), "--rules", "junior", *extra]) == 0
    assert asked == [FAMILY, PLAIN]
    assert "0 disturbances" in capsys.readouterr().out
