"""``elfer demo``'s parts: a rendered episode through the device's feedback onto the dummy
display, filmed beside the camera's view. The whole command renders a full game (tens
of seconds), so it is run by hand, not here; its arguments are checked here."""

from __future__ import annotations

import pytest
from PIL import Image

from companion.cli import main
from companion.demo import Film, composite
from companion.device import Episode
from companion.device.display import Screen, open_display
from companion.device.feedback import Feedback
from companion.loop import RefereeLoop, run
from companion.ui import Panel, screens
from companion.vision import StreamReader
from short_episodes import short_episode


@pytest.fixture(scope="module")
def episode(tmp_path_factory):
    return Episode.load(short_episode(tmp_path_factory.mktemp("demo") / "episode", seed=13))


def test_a_rendered_game_shows_the_rejection_then_the_next_turn_and_is_filmed(episode, tmp_path):
    seen = []
    film = Film(every_ms=1000)

    def shown(image):
        seen.append(image.tobytes())
        film.screen(image)

    display = open_display("dummy")
    loop = RefereeLoop(episode.start, Feedback(Panel("de"), Screen(display), on_image=shown), opener=episode.opener)
    run(episode.inputs(), StreamReader(), loop, on_frame=film.table)
    wrong = screens.alert("Falsche Farbe!", "Blau 12 liegt auf Rot 12: falsche Farbe", "Karte wegnehmen")
    assert wrong.tobytes() in seen
    hands = loop.game.hand_sizes()
    assert display.image.tobytes() == screens.turn("Ben", hands, loop.game.stock, 0, 3).tobytes()
    gif = tmp_path / "demo.gif"
    film.save(gif, speed=4.0)
    with Image.open(gif) as played:
        assert played.n_frames == len(film.frames) > len(episode.frames) / 10 / 2
        assert played.size == composite(None, None).size


@pytest.mark.parametrize("argv, said", [
    (["--players", "7"], "2 to 6 players"),
    (["--rules", "sixty", "--players", "3"], "exactly 2 players"),
    (["--rules", "chess"], "chess"),
])
def test_impossible_demo_settings_get_a_clear_error(argv, said, capsys):
    try:
        status = main(["demo", *argv])
    except SystemExit as exited:  # argparse refuses the value itself
        status = exited.code
    assert status == 2
    assert said in capsys.readouterr().err
