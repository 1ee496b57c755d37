"""``elfer run``'s code path (``device.app``) on mocked hardware: an episode as the camera,
its presses scripted on gpiozero's mock pins, the screens and the record checked; and
the config's errors, each named."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.device.app import SetupError, build
from companion.device.config import ConfigError, load_config, parse_config
from companion.record import check, read_objects, summary
from companion.rules import Referee, get_preset
from companion.ui import screens
from device_fakes import pins  # noqa: F401 (a fixture)
from short_episodes import short_episode

PINS = {"next": 5, "draw": 6, "back": 13}


@pytest.fixture
def mocked(pins, monkeypatch):
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", pins)
    return pins


@pytest.fixture(scope="module")
def episode(tmp_path_factory):
    return short_episode(tmp_path_factory.mktemp("run") / "episode", seed=14)


def press(pins, name: str) -> None:
    """A short press of a button, on its mock pin."""
    pin = pins.pin(PINS[name])
    pin.drive_low()
    pin.drive_high()


def played(episode, pins, tmp_path):
    """The episode played through the device built from its config, its recorded presses
    made on the mock pins as their times come; the app, and every screen shown."""
    config = parse_config({"camera": {"backend": "episode", "episode": str(episode)},
                           "buttons": {**PINS, "bounce_ms": 0}, "display": {"kind": "none"},
                           "store": {"records": str(tmp_path / "records")}}, "test", tmp_path)
    app = build(config)
    assert app.buttons is not None and app.feedback.sounder is not None
    shown = []
    app.feedback.on_image = lambda image: shown.append(image.tobytes())
    presses = [json.loads(line) for line in (episode / "buttons.jsonl").read_text().splitlines()]

    def press_due(t_ms):
        while presses and presses[0]["t_ms"] <= t_ms:
            press(pins, presses.pop(0)["button"])

    app.run(before_frame=press_due)
    assert not presses
    return app, shown


def checked_record(app) -> dict:
    """The record the device wrote, checked line by line; its summary."""
    record = app.write_record()
    referee = Referee()
    verdicts = list(check(read_objects(record.read_text().splitlines()), referee))
    assert verdicts and all(checked.verdict.ok for checked in verdicts)
    return summary(referee)


def test_a_game_played_through_the_device_shows_each_verdict_and_writes_a_checkable_record(mocked, episode,
                                                                                        tmp_path):
    app, shown = played(episode, mocked, tmp_path)
    wrong = screens.alert("Falsche Farbe!", "Blau 12 liegt auf Rot 12: falsche Farbe", "Karte wegnehmen")
    assert wrong.tobytes() in shown
    game = app.runner.loop.game
    assert shown[-1] == screens.turn("Ben", game.hand_sizes(), game.stock, 0, 3).tobytes()
    result = checked_record(app)
    assert result["rows"]["R"] == [10, 12] and result["current"] == "Ben"


def test_without_buttons_the_device_refuses_to_start_but_an_episode_plays_its_own_presses(episode, tmp_path):
    with pytest.raises(SetupError, match="no buttons"):
        build(parse_config({"display": {"kind": "none"}, "buzzer": {"kind": "none"}}, "test", tmp_path))
    config = parse_config({"camera": {"backend": "episode", "episode": str(episode)}, "display": {"kind": "none"},
                           "buzzer": {"kind": "none"}, "store": {"records": str(tmp_path)}}, "test", tmp_path)
    app = build(config)
    app.run()
    assert app.runner.loop.game.current_player == "Ben"  # the episode's NEXT presses were played


def test_a_camera_that_gives_no_picture_is_said_and_the_buttons_go_on(mocked, tmp_path):
    class Flaky:
        def frames(self):
            for t_ms in range(0, 3000, 100):
                yield t_ms, None

    config = parse_config({"buttons": {**PINS, "bounce_ms": 0}, "display": {"kind": "none"},
                           "game": {"players": ["Anna", "Ben"], "rules": "junior"}}, "test", tmp_path)
    app = build(config)
    app.runner.camera = Flaky()
    shown = []
    app.feedback.on_image = lambda image: shown.append(image.tobytes())

    def draw_and_next(t_ms):
        if t_ms == 1000:
            press(mocked, "draw")
            press(mocked, "next")

    app.run(before_frame=draw_and_next)
    assert screens.message("Keine Kamera", ["Kamera fehlt: weiter mit den Tasten"]).tobytes() in shown
    game = app.runner.loop.game
    assert game.turns == 1 and game.hand_sizes()["Anna"] == get_preset("junior").hand_size(2) + 1


def test_every_problem_of_a_config_is_named_on_its_own_line(tmp_path, capsys):
    path = tmp_path / "companion.toml"
    path.write_text('[game]\nplayers = ["Anna"]\nrules = "chess"\n[display]\nkind = "lcd"\naddress = 300\n'
                    '[buttons]\nnext = 6\ndraw = 6\n[camera]\nbackend = "episode"\n[lamp]\non = true\n')
    assert main(["run", "--config", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    for expected in ("[lamp]: unknown section", "game.players: 2 to 6 different names", "game.rules: unknown rules",
                     "display.kind: ssd1306 or sh1106 or none", "display.address", "share a pin",
                     "camera.episode: an episode folder"):
        assert sum(expected in line for line in err) == 1, expected
    assert all(line.startswith(f"elfer run: {path}: ") for line in err)


@pytest.mark.parametrize("text, said", [
    ("[game\n", "not valid TOML"),
    ('[buzzer]\nvolume = "loud"\n', "buzzer.volume: expected a number"),
    ("[game]\nteams = 2\n", "game.teams: unknown key"),
    ("[game]\ngames = 3\nlimit = 500\n", "either games or a limit"),
])
def test_a_bad_config_gets_a_clear_error(tmp_path, text, said):
    path = tmp_path / "companion.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=said):
        load_config(path)


def test_a_missing_config_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(tmp_path / "nowhere.toml")


def test_the_dry_run_says_what_it_found(tmp_path, capsys):
    assert main(["run", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "config: defaults: ok" in out and "camera: not usable" in out and "display: not found" in out


def _table_with_markers(ids) -> "np.ndarray":
    import numpy as np

    from companion.vision.markers import marker_image

    picture = np.full((720, 1280, 3), 200, np.uint8)
    for marker_id, (x, y) in zip(ids, [(40, 40), (1100, 40), (1100, 560), (40, 560)]):
        marker = marker_image(marker_id, 100)
        h, w = marker.shape
        picture[y:y + h, x:x + w] = marker[..., None]
    return picture


def test_at_start_up_the_screen_counts_the_markers_until_all_four_are_seen(tmp_path):
    config = parse_config({"display": {"kind": "none"}, "buzzer": {"kind": "none"}, "camera": {"backend": "usb"}},
                          "test", tmp_path)
    app = build(config, need_buttons=False)
    pictures = [_table_with_markers([0, 1])] * 3 + [_table_with_markers([0, 1, 2, 3])] * 3

    class Laid:
        def frames(self):
            for index, picture in enumerate(pictures):
                yield index * 600, picture  # the markers are counted once a second

    app.runner.camera = Laid()
    shown = []
    app.feedback.on_image = lambda image: shown.append(image.tobytes())
    app.run()
    counted = screens.message("Marker?", ["Marker nicht gefunden: 2 von 4"]).tobytes()
    assert shown[0] == counted and shown[-1] != counted and counted not in shown[1:]


def test_an_unreadable_profile_is_said_and_the_shipped_one_reads_meanwhile(tmp_path):
    broken = tmp_path / "profile"
    broken.mkdir()
    (broken / "profile.json").write_text("{not json")
    config = parse_config({"display": {"kind": "none"}, "buzzer": {"kind": "none"}, "camera": {"backend": "usb"},
                           "vision": {"profile": "profile"}}, "test", tmp_path)
    app = build(config, need_buttons=False)
    assert any(line.startswith("profile: not usable") for line in app.found)
    assert app.feedback.image.tobytes() == screens.message(
        "Kartenprofil?", ["Kartenprofil nicht lesbar: Standarddeck"]).tobytes()


def test_a_whole_game_with_a_mistake_and_penalties_counted_by_the_camera(mocked, tmp_path):
    """Junior, to its end, through the device: presses on the mock pins, the screens shown,
    Ben's last three cards laid face up and counted, the record checked."""
    from short_episodes import junior_to_the_end

    episode = junior_to_the_end(tmp_path / "junior", seed=15)
    app, shown = played(episode, mocked, tmp_path)
    skipped = screens.alert("Gelb 2 und Gelb 3 fehlen!", "Gelb 4 liegt auf Gelb 1", "Karte wegnehmen")
    assert skipped.tobytes() in shown
    game = app.runner.loop.game
    counted = screens.penalty("Ben", 20, *game.penalty_bounds("Ben"), counted=("B5", "Y7", "G8"))
    assert counted.tobytes() in shown
    assert shown[-1] == screens.game_over("Anna", {"Ben": 20}, "de").tobytes()
    result = checked_record(app)
    assert result["penalties"] == {"Ben": 20} and result["winner"] == "Anna"
