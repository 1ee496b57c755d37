"""Episodes and data sets of the synthetic table: the folder contract, the truth the referee checks,
the pictures, and the ``elfer synth`` / ``elfer markers`` / ``elfer bench synth`` commands.

Kept small: 320 × 180 pictures, two players, junior rules (short games), 2 frames per second.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import DECK, Card
from companion.cli import main
from companion.rules.presets import get_preset
from companion.sim.camera import Camera
from companion.sim.datasets import write_cards, write_scenes
from companion.sim.deck import CARD_MM, STYLES
from companion.sim.episode import random_scenery, write_episode
from companion.sim.lighting import Lighting, jpeg_roundtrip
from companion.sim.render import SceneCamera
from companion.sim.script import MISTAKES, PLAIN, play_script
from companion.sim.surface import SURFACES
from companion.vision.markers import PLAY_AREA_MM

RESOLUTION = (320, 180)
PLAYERS = ("Anna", "Ben")
FPS = 2.0
SEED = 2
BUTTONS = {"next", "draw", "back"}
EVENTS = {"start", "place", "draw", "next", "undo", "penalty"}


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_lines(path: Path, items: list[dict]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return path


def check_json(path: Path, capsys) -> tuple[int, list[dict], dict]:
    """``elfer check --json`` in-process: exit code, one verdict per line, the summary."""
    capsys.readouterr()
    code = main(["check", str(path), "--json"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.strip()]
    return code, out[:-1], out[-1]["summary"]


@pytest.fixture(scope="module")
def episode(tmp_path_factory) -> Path:
    """A junior game with mistakes (rate 0.3), rendered small, with the moves only (no behaviours
    or disturbances: the pictures are compared with the labels frame by frame)."""
    out = tmp_path_factory.mktemp("episode") / "ep"
    write_episode(out, get_preset("junior"), PLAYERS, SEED, fps=FPS, mistakes=0.3, resolution=RESOLUTION,
                  behaviours=PLAIN)
    return out


@pytest.fixture(scope="module")
def clean_episode(tmp_path_factory) -> Path:
    """The same game without mistakes."""
    out = tmp_path_factory.mktemp("episode") / "clean"
    write_episode(out, get_preset("junior"), PLAYERS, SEED, fps=FPS, mistakes=0.0, resolution=RESOLUTION,
                  behaviours=PLAIN)
    return out


@pytest.fixture(scope="module")
def family_episode(tmp_path_factory) -> Path:
    """The junior game with mistakes as ``write_episode`` renders it by default: with the family's
    behaviours and the room's disturbances."""
    out = tmp_path_factory.mktemp("episode") / "family"
    write_episode(out, get_preset("junior"), PLAYERS, SEED, fps=FPS, mistakes=0.3, resolution=RESOLUTION)
    return out


# ------------------------------------------------------------------ the folder contract
def test_meta_json_has_the_contract_fields(episode):
    meta = json.loads((episode / "meta.json").read_text(encoding="utf-8"))
    assert {"players", "opener", "rules", "fps", "resolution", "style", "seed", "frames"} <= set(meta)
    assert meta["players"] == list(PLAYERS)
    assert meta["opener"] in PLAYERS
    assert meta["rules"] == "junior"
    assert meta["fps"] == FPS
    assert meta["resolution"] == list(RESOLUTION)
    assert meta["style"] in STYLES
    assert meta["seed"] == SEED
    assert isinstance(meta["frames"], int) and meta["frames"] > 50
    # the scenery written there is the one the frames were taken with
    camera = Camera(**meta["scenery"]["camera"])
    assert camera.resolution == RESOLUTION
    assert meta["scenery"]["style"] == meta["style"] and meta["scenery"]["surface"] in SURFACES
    Lighting(**meta["scenery"]["lighting"])


def test_frames_are_numbered_without_gaps_and_decode_at_the_resolution(episode):
    meta = json.loads((episode / "meta.json").read_text(encoding="utf-8"))
    names = sorted(p.name for p in (episode / "frames").iterdir())
    assert names == [f"{i:06d}.jpg" for i in range(meta["frames"])]
    for name in names[:: max(1, len(names) // 25)] + [names[-1]]:
        data = (episode / "frames" / name).read_bytes()
        assert data[:3] == b"\xff\xd8\xff"  # JPEG
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape == (RESOLUTION[1], RESOLUTION[0], 3)


@pytest.mark.parametrize("which", ["episode", "family_episode"])
def test_buttons_and_truth_follow_the_format_and_the_frame_clock(which, request):
    episode = request.getfixturevalue(which)
    meta = json.loads((episode / "meta.json").read_text(encoding="utf-8"))
    frame_times = {round(i * 1000 / meta["fps"]) for i in range(meta["frames"])}
    end = round((meta["frames"] - 1) * 1000 / meta["fps"])
    buttons = read_lines(episode / "buttons.jsonl")
    truth = read_lines(episode / "truth.jsonl")
    assert buttons and truth
    for press in buttons:
        assert set(press) <= {"t_ms", "button", "hold_ms", "answer"} and {"t_ms", "button"} <= set(press)
        assert press["button"] in BUTTONS
        if "answer" in press:  # yes is NEXT, no is BACK
            assert press["answer"] is (press["button"] == "next") and press["button"] in ("next", "back")
        assert isinstance(press["t_ms"], int) and press["t_ms"] in frame_times
    for event in truth:
        assert event["event"] in EVENTS
        assert isinstance(event["t_ms"], int) and 0 <= event["t_ms"]
    for items in (buttons, truth):
        times = [item["t_ms"] for item in items]
        assert times == sorted(times), "t_ms goes backwards"
    assert all(event["t_ms"] <= end for event in truth if event["event"] != "penalty")
    assert truth[0] == {"event": "start", "players": list(PLAYERS), "rules": "junior", "t_ms": 0}
    # penalties come after the game, at the end
    kinds = [event["event"] for event in truth]
    first_penalty = kinds.index("penalty")
    assert set(kinds[first_penalty:]) == {"penalty"}
    # the opener is the player named by the game's first turn event (or the first player)
    first_turn = truth[1]
    assert meta["opener"] == first_turn.get("player", PLAYERS[0])


@pytest.mark.parametrize("which", ["episode", "family_episode"])
def test_buttons_match_the_truths_draw_and_next_one_to_one(which, request):
    episode = request.getfixturevalue(which)
    buttons = read_lines(episode / "buttons.jsonl")
    truth = read_lines(episode / "truth.jsonl")
    # an answer to the companion's question is a press but no game event
    pressed = [(press["button"], press["t_ms"]) for press in buttons
               if press["button"] in ("draw", "next") and "answer" not in press]
    recorded = [(event["event"], event["t_ms"]) for event in truth if event["event"] in ("draw", "next")]
    assert pressed == recorded
    assert {kind for kind, _ in pressed} == {"draw", "next"}
    # a place is never at the same moment as a press: the card touches down while no button is pressed
    places = {event["t_ms"] for event in truth if event["event"] == "place"}
    assert places and not places & {t for _, t in pressed}


def test_rewriting_an_episode_folder_leaves_no_stale_frames(tmp_path):
    out = tmp_path / "ep"
    first = write_episode(out, get_preset("junior"), PLAYERS, 3, fps=1.0, resolution=(160, 90))
    second = write_episode(out, get_preset("junior"), PLAYERS, 6, fps=1.0, resolution=(160, 90))
    assert first["frames"] > second["frames"]  # the second game is shorter
    names = sorted(p.name for p in (out / "frames").iterdir())
    assert names == [f"{i:06d}.jpg" for i in range(second["frames"])]


# ------------------------------------------------------------------ the truth is what the referee says
@pytest.mark.parametrize("which", ["episode", "family_episode"])
def test_truth_passes_elfer_check_except_exactly_the_mistakes(which, request, capsys):
    episode = request.getfixturevalue(which)
    truth = read_lines(episode / "truth.jsonl")
    meta = json.loads((episode / "meta.json").read_text(encoding="utf-8"))
    mistakes = [event for event in truth if event.get("mistake")]
    assert len(mistakes) == meta["mistakes"] > 0
    code, verdicts, summary = check_json(episode / "truth.jsonl", capsys)
    assert code == 1
    assert len(verdicts) == len(truth)
    for number, (event, verdict) in enumerate(zip(truth, verdicts), start=1):
        assert verdict["line"] == number and verdict["event"] == event["event"]
        if event.get("mistake"):
            assert event["error"] in MISTAKES
            assert verdict["ok"] is False and verdict["error"] == event["error"], (number, event, verdict)
        else:
            assert verdict["ok"] is True, (number, event, verdict)
    assert summary["over"] is True and summary["winner"] in PLAYERS


def test_without_mistakes_every_line_is_accepted(clean_episode, capsys):
    truth = read_lines(clean_episode / "truth.jsonl")
    assert not any("mistake" in event for event in truth)
    assert json.loads((clean_episode / "meta.json").read_text())["mistakes"] == 0
    code, verdicts, summary = check_json(clean_episode / "truth.jsonl", capsys)
    assert code == 0 and len(verdicts) == len(truth)
    assert all(verdict["ok"] for verdict in verdicts)
    assert summary["over"] is True
    assert set(summary["penalties"]) == set(PLAYERS) - {summary["winner"]}


@pytest.mark.parametrize("rules, players, seed", [
    ("classic", 3, 1), ("classic", 4, 5), ("draw-one", 3, 2), ("draw-continue", 2, 3), ("free-pass", 3, 4),
    ("false-start", 3, 6), ("three-starts", 4, 7), ("any-start", 3, 8), ("sixty", 2, 9), ("junior", 3, 10),
])
def test_scripted_mistakes_draw_their_error_under_every_preset(tmp_path, capsys, rules, players, seed):
    names = ("Anna", "Ben", "Cem", "Dana")[:players]
    script, _ = play_script(get_preset(rules), names, seed, 2.0, PLAY_AREA_MM, mistake_rate=0.4)
    assert script.mistakes > 0  # a high rate does produce mistakes
    code, verdicts, _ = check_json(write_lines(tmp_path / "truth.jsonl", script.truth), capsys)
    assert code == 1
    wanted = [(event.get("error") if event.get("mistake") else None) for event in script.truth]
    assert [verdict["error"] for verdict in verdicts] == wanted
    assert sum(1 for event in script.truth if event.get("mistake")) == script.mistakes


def test_mistakes_appear_only_when_asked_and_more_at_a_higher_rate():
    preset = get_preset("classic")
    names = ("Anna", "Ben", "Cem")
    counts = {rate: sum(play_script(preset, names, seed, 2.0, PLAY_AREA_MM, mistake_rate=rate)[0].mistakes
                        for seed in range(1, 4)) for rate in (0.0, 0.05, 0.5)}
    assert counts[0.0] == 0 < counts[0.05] < counts[0.5]


# ------------------------------------------------------------------ the hand and the card in the pictures
def _gray(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE).astype(np.float32)
    return cv2.GaussianBlur(image, (3, 3), 0)


def _changed(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a - b) > 30  # well above sensor noise and JPEG after a 3 × 3 blur


def test_a_card_goes_down_where_its_label_says_and_a_lifted_card_leaves_the_table_as_it_was(episode):
    meta = json.loads((episode / "meta.json").read_text(encoding="utf-8"))
    script, _ = play_script(get_preset("junior"), PLAYERS, SEED, FPS, PLAY_AREA_MM, mistake_rate=0.3)
    assert script.truth == read_lines(episode / "truth.jsonl")  # the same script as the episode's
    assert len(script.frames) == meta["frames"]
    scenery = random_scenery(SEED, resolution=RESOLUTION)
    assert json.loads(json.dumps(scenery.describe())) == meta["scenery"]
    camera = SceneCamera(scenery)
    states = script.frames
    frame = lambda i: _gray(episode / "frames" / f"{i:06d}.jpg")  # noqa: E731

    # two frames of the still table differ by noise and JPEG only
    still = [i for i in range(1, len(states)) if states[i].hand is None and states[i - 1].hand is None
             and states[i].table == states[i - 1].table]
    assert len(still) > 20
    for i in still[:: len(still) // 5]:
        assert _changed(frame(i), frame(i - 1)).mean() < 0.002

    lays = lifts = hand_frames = seen = 0
    laid_over = {}  # pose -> the still frame before it was laid
    for i in range(1, len(states)):
        before_n, after_n = len(states[i - 1].table), len(states[i].table)
        if after_n == before_n:
            continue
        start = i  # the hand's frames: from entering to leaving
        while states[start - 1].hand is not None:
            start -= 1
        end = i
        while states[end].hand is not None:
            end += 1
        before, settled = frame(start - 1), frame(end)
        assert states[start - 1].hand is None and states[end].hand is None
        for j in range(start, end):  # while the hand is over the table, the picture is not the still table
            if states[j].hand.reach >= 0.5:  # (at reach 0 the hand is still beyond the picture's edge)
                assert _changed(frame(j), before).mean() > 0.004, f"frame {j}: hand not seen"
                hand_frames += 1
        if after_n == before_n + 1:  # a card went down
            lays += 1
            laid_over[states[i].table[-1]] = start - 1
            label = camera.labels(states[end].table)[-1]
            assert label["card"] == states[end].table[-1].card.code
            polygon = np.array(label["polygon"], np.float32)
            inside = np.zeros(before.shape, np.uint8)
            cv2.fillConvexPoly(inside, np.round(polygon * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
            near = cv2.dilate(inside, np.ones((7, 7), np.uint8)).astype(bool)  # 3 px round the outline
            changed = _changed(settled, before)
            seen += changed.sum() > 5
            assert not (changed & ~near).any(), f"card {label['card']}: the picture changed away from its label"
        else:  # a mistaken card taken back
            assert after_n == before_n - 1
            lifts += 1
            (lifted,) = set(states[i - 1].table) - set(states[i].table)
            assert lifted == states[i - 1].table[-1]  # the mistaken card, the last one laid
            assert _changed(settled, frame(laid_over[lifted])).mean() < 0.002, \
                f"frame {end}: the table is not as before {lifted.card.code} was laid"
    assert hand_frames >= lays + lifts
    # A card laid squarely on its pile can look almost like the card below it (Y10 on Y11: one digit
    # of a 3 mm index changes, a few pixels at 320 x 180), so not every lay must show; nearly all do.
    assert seen >= 0.8 * lays
    assert lays >= 10 and lifts == sum(1 for e in script.truth if e.get("mistake") and e["event"] == "place")


# ------------------------------------------------------------------ data sets
def test_write_scenes_labels_every_picture(tmp_path):
    resolution = (640, 360)
    labels = write_scenes(tmp_path, 3, 7, resolution=resolution)
    on_disk = json.loads((tmp_path / "labels.json").read_text(encoding="utf-8"))
    assert on_disk == json.loads(json.dumps(labels))
    pictures = sorted(p.name for p in tmp_path.glob("*.jpg"))
    assert pictures == sorted(on_disk) and len(pictures) == 3
    for name, entry in on_disk.items():
        image = cv2.imread(str(tmp_path / name))
        assert image.shape == (resolution[1], resolution[0], 3)
        assert entry["style"] in STYLES and entry["surface"] in SURFACES
        assert Camera(**entry["camera"]).resolution == resolution
        Lighting(**entry["lighting"])
        assert entry["cards"], name
        codes = [card["card"] for card in entry["cards"]]
        assert len(set(codes)) == len(codes)
        for card in entry["cards"]:
            assert Card.parse(card["card"]).code == card["card"]
            polygon = np.array(card["polygon"], float)
            assert polygon.shape == (4, 2)
            assert isinstance(card["visible"], bool)
            assert card["visible"] == (card["visible_share"] >= 0.5)
            # a card's outline is a card-shaped quadrilateral on the table seen by that camera
            sides = np.linalg.norm(np.roll(polygon, -1, axis=0) - polygon, axis=1)
            assert 1.2 < (sides[1] + sides[3]) / (sides[0] + sides[2]) < 1.9  # 91 / 59 = 1.54, seen tilted
        assert any(card["visible"] for card in entry["cards"])


PICTURED = DECK[::5]  # every colour, ones and elevens among them; all 80 twice would take seconds more


@pytest.fixture(scope="module")
def card_pictures(tmp_path_factory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("cards")
    return out, write_cards(out, "reference", variants=2, resolution=RESOLUTION, cards=PICTURED)


def test_write_cards_writes_each_card_twice_by_name(card_pictures):
    out, written = card_pictures
    expected = {f"{card.code}.png" for card in PICTURED} | {f"{card.code}_2.png" for card in PICTURED}
    assert len(expected) == 32
    assert {p.name for p in written} == expected == {p.name for p in out.iterdir()}
    assert {"R1.png", "R1_2.png", "B16.png", "B16_2.png"} <= expected


def test_each_card_picture_shows_exactly_one_card(card_pictures):
    """Compared with the same table without the card: one card-sized region changed, nothing else.

    The empty table is rebuilt as ``write_cards`` draws its scenery (seed, card number, variant).
    """
    out, _ = card_pictures
    for number in range(0, len(DECK), 5):  # each card pictured, in one of its two variants
        card, variant = DECK[number], 1 + number % 2
        name = card.code if variant == 1 else f"{card.code}_{variant}"
        picture = cv2.imread(str(out / f"{name}.png"))
        assert picture.shape == (RESOLUTION[1], RESOLUTION[0], 3)
        rng = np.random.default_rng([0, DECK.index(card), variant])
        scenery = random_scenery(int(rng.integers(2**31)), style="reference", resolution=RESOLUTION)
        camera = SceneCamera(scenery)
        empty, _ = camera.picture(())
        empty = jpeg_roundtrip(empty, scenery.lighting.jpeg_quality)
        diff = np.abs(picture.astype(np.int16) - empty.astype(np.int16)).max(axis=2)
        changed = cv2.morphologyEx((diff > 40).astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        ys, xs = np.nonzero(changed)
        assert len(xs) >= 10, f"{name}: no card"
        # the card's size there: a 59 x 91 mm rectangle on the table at that point, as the camera sees it,
        # grown by the picture's blur. On a light cloth only the numeral may differ from the table,
        # so the changed pixels need not fill the card, but they must all lie within one card.
        centre = camera.camera.unproject(np.array([[xs.mean(), ys.mean()]]))[0]
        w, h = CARD_MM
        seen = camera.camera.project(centre + np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2)
        blur = scenery.lighting.motion_blur_px + 3 * scenery.lighting.defocus_sigma_px + 2
        sides = np.linalg.norm(np.roll(seen, -1, axis=0) - seen, axis=1)
        hull = cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32))
        assert cv2.contourArea(hull) < 1.15 * (sides[0] + blur) * (sides[1] + blur), name  # not two cards
        if scenery.surface == "mat":  # paper on the dark mat: the whole card shows
            assert cv2.contourArea(hull) > 0.6 * cv2.contourArea(seen.astype(np.float32)), name
        corners = hull[:, 0, :].astype(float)
        extent = np.linalg.norm(corners[:, None] - corners[None], axis=2).max()  # the region's diameter
        assert extent < np.hypot(*sides[:2]) + blur + 2, name


# ------------------------------------------------------------------ the commands
@pytest.mark.parametrize("suffix, magic", [(".pdf", b"%PDF"), (".png", b"\x89PNG")])
def test_markers_command_writes_the_sheet(tmp_path, capsys, suffix, magic):
    path = tmp_path / f"markers{suffix}"
    assert main(["markers", "--out", str(path), "--dpi", "100"]) == 0
    assert path.read_bytes()[:4] == magic
    assert str(path) in capsys.readouterr().out


def test_markers_command_refuses_other_file_types(tmp_path, capsys):
    path = tmp_path / "markers.txt"
    assert main(["markers", "--out", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("elfer markers:") and not path.exists()


@pytest.mark.parametrize("kind", ["episode", "cards", "scenes"])
def test_synth_help(kind, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["synth", kind, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "--out" in out and "--seed" in out


def test_synth_onto_an_existing_file_is_exit_2(tmp_path, capsys):
    path = tmp_path / "taken.txt"
    path.write_text("keep me")
    assert main(["synth", "episode", "--out", str(path), "--players", "2", "--rules", "junior"]) == 2
    err = capsys.readouterr().err
    assert str(path) in err
    assert path.read_text() == "keep me"


@pytest.mark.parametrize("argv", [["synth", "episode", "--out", "x", "--players", "7"],
                                  ["synth", "episode", "--out", "x", "--mistakes", "2"],
                                  ["synth", "episode", "--out", "x", "--fps", "0"],
                                  ["synth", "cards", "--out", "x", "--style", "nonesuch"],
                                  ["synth", "scenes", "--out", "x", "--n", "0"]])
def test_synth_refuses_bad_arguments(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_synth_scenes_command_renders_a_labelled_picture(tmp_path, capsys):
    out = tmp_path / "scenes"
    assert main(["synth", "scenes", "--n", "1", "--seed", "3", "--out", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    labels = json.loads((out / "labels.json").read_text(encoding="utf-8"))
    assert list(labels) == ["00000.jpg"]
    assert cv2.imread(str(out / "00000.jpg")).shape == (720, 1280, 3)
    assert labels["00000.jpg"]["cards"]


def test_bench_synth_runs(capsys):
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    try:
        assert main(["bench", "synth", "--frames", "5", "--repeat", "1"]) == 0
    finally:
        if affinity is not None:
            os.sched_setaffinity(0, affinity)  # the benchmark pins the process to one core
    out = capsys.readouterr().out
    assert "elfer bench synth" in out and "frames/s" in out
