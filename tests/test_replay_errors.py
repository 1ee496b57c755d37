"""``elfer replay`` on episodes that are missing or malformed: a clear error, exit status 2;
a frame that cannot be decoded is skipped and said."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.device import Episode

META = {"players": ["Anna", "Ben"], "rules": "classic", "fps": 10}


def episode(folder: Path, meta=META, frames: int = 3, buttons: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").write_text(meta if isinstance(meta, str) else json.dumps(meta))
    (folder / "frames").mkdir(exist_ok=True)
    blank = cv2.imencode(".jpg", np.full((72, 128, 3), 90, np.uint8))[1].tobytes()
    for i in range(frames):
        (folder / "frames" / f"{i:06d}.jpg").write_bytes(blank)
    (folder / "buttons.jsonl").write_text(buttons)
    return folder


@pytest.mark.parametrize("damage, named", [
    (lambda f: (f / "meta.json").unlink(), "meta.json: missing"),
    (lambda f: (f / "meta.json").write_text("{players"), "meta.json: not JSON"),
    (lambda f: (f / "meta.json").write_text(json.dumps({**META, "players": ["Anna"]})), "players"),
    (lambda f: (f / "meta.json").write_text(json.dumps({**META, "fps": "fast"})), "fps"),
    (lambda f: [p.unlink() for p in (f / "frames").glob("*.jpg")], "no frames"),
    (lambda f: (f / "buttons.jsonl").write_text('{"t_ms": 10, "button": "next"}\n{"t_ms": 20, "button": "jump"}\n'),
     "buttons.jsonl, line 2"),
    (lambda f: (f / "buttons.jsonl").write_text('{"t_ms": -5, "button": "next"}\n'), "t_ms"),
    (lambda f: (f / "buttons.jsonl").write_text("next\n"), "buttons.jsonl, line 1: not JSON"),
])
def test_a_malformed_episode_is_named_and_exits_2(tmp_path, capsys, damage, named):
    folder = episode(tmp_path / "ep")
    damage(folder)
    assert main(["replay", str(folder)]) == 2
    captured = capsys.readouterr()
    assert named in captured.err and captured.out == ""


def test_a_missing_episode_folder_and_unknown_rules_exit_2(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nowhere")]) == 2
    assert "no such episode folder" in capsys.readouterr().err
    folder = episode(tmp_path / "ep", {**META, "rules": "chess"})
    assert main(["replay", str(folder)]) == 2
    assert "chess" in capsys.readouterr().err


def test_a_broken_profile_exits_2(tmp_path, capsys):
    folder = episode(tmp_path / "ep")
    (tmp_path / "profile").mkdir()
    assert main(["replay", str(folder), "--profile", str(tmp_path / "profile")]) == 2
    assert capsys.readouterr().err.startswith("elfer replay:")


def test_frames_that_cannot_be_decoded_are_skipped_and_said(tmp_path, capsys):
    folder = episode(tmp_path / "ep", frames=30)
    (folder / "frames" / "000004.jpg").write_bytes(b"\xff\xd8 not a picture")
    assert main(["replay", str(folder), "--json"]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert lines[-1]["summary"]["current"] is None  # nothing laid on a blank table
    assert lines[0]["source"] == "setup"
    assert [line.get("notice") for line in lines[1:-1]] == ["no_view"]  # no markers, no cards for 2 s
    assert "1 frames could not be decoded" in captured.err


def test_presses_come_in_time_order_before_a_frame_taken_at_the_same_moment(tmp_path):
    folder = episode(tmp_path / "ep", frames=3, buttons='{"t_ms": 100, "button": "draw"}\n'
                     '{"t_ms": 50, "button": "next"}\n{"t_ms": 900, "button": "back", "answer": false}\n')
    inputs = [(type(item).__name__, item.t_ms) for item in Episode.load(folder).inputs()]
    assert inputs == [("FrameIn", 0), ("ButtonIn", 50), ("ButtonIn", 100), ("FrameIn", 100), ("FrameIn", 200),
                      ("ButtonIn", 900)]

