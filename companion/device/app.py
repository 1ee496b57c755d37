"""The device put together from its config: ``elfer run`` builds an :class:`App` and runs it.

The hardware it cannot reach it does without, and says so: no display, it logs and
beeps; no buzzer, it is silent; no camera, the buttons track the turn until pictures
come. Without buttons there is no play, except from an episode, whose recorded presses
stand in for them. The pin factory is gpiozero's default (``GPIOZERO_PIN_FACTORY``;
tests set ``Device.pin_factory`` to a ``MockFactory``).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from ..loop import Fanout, Journal, Notice, RefereeLoop
from ..rules import Start
from ..ui import Panel
from ..ui.menu import Choice, Menu
from .buttons import ButtonPanel, ButtonSettings
from .camera import open_camera
from .config import Config
from .display import DisplayError, Screen, open_display
from .feedback import Feedback
from .guide import Guide
from .runner import Runner

SPARE_NAMES = ("Spieler 4", "Spieler 5", "Spieler 6")  # seats the menu can add beyond the config's names

log = logging.getLogger(__package__)


class SetupError(RuntimeError):
    """The device cannot start: the episode it is to play or the buttons are missing."""


@dataclass
class App:
    config: Config
    runner: Runner
    journal: Journal
    feedback: Feedback
    buttons: ButtonPanel | None
    episode: object | None = None
    found: list[str] = field(default_factory=list)  # what hardware was found and what not, a line each
    choice: Choice | None = None  # what the setup menu shows and changes
    menu: Menu | None = None  # the setup menu, while it is open
    guide: Guide | None = None  # the calibration guide, while it runs

    def menu_press(self, t_ms: int, name: str) -> bool:
        """The setup menu's share of the presses: the long press of NEXT opens it, and
        while it (or the calibration guide it starts) is open every press is its (see
        ``ui/menu.py``, ``guide.py``)."""
        if self.guide is not None:
            self._guide_press(t_ms, name)
            return True
        if self.menu is None:
            if name != "menu" or self.choice is None:
                return False
            self.menu = Menu(self.choice)
            self.feedback.overlay(self.menu.image())
            return True
        result = self.menu.press(name)
        if result is None:
            self.feedback.overlay(self.menu.image())
            return True
        choice, self.menu = self.menu.choice, None
        if result == "done":
            self._apply(choice, t_ms)
        self.feedback.overlay(self.guide.image() if self.guide is not None else None)
        return True

    def _guide_press(self, t_ms: int, name: str) -> None:
        guide = self.guide
        result = guide.press(name, self.runner.last_picture)
        if result is None:
            self.feedback.overlay(guide.image())
            return
        if result == "learn":
            self.feedback.overlay(guide.image())
            self._learn(t_ms, guide)
        self.guide = None
        self.runner.paused = False
        self.runner.loop.look_again()  # the calibration cards were no moves
        self.feedback.overlay(None)

    def _learn(self, t_ms: int, guide: Guide) -> None:
        """The deck learned from the guide's pictures, saved, and read with from now on."""
        from ..vision import CalibrationError, StreamReader, calibrate

        loop = self.runner.loop
        try:
            profile, report = calibrate(guide.calibration_pictures(), deck_name="eigenes Deck")
        except CalibrationError as error:
            log.error("calibration failed: %s", error)
            loop.outputs.notice(Notice(t_ms, "calibration_failed"))
            return
        folder = self.config.path("vision", "profile") or self.config.folder / "profile"
        try:
            profile.save(folder)
        except OSError as error:
            log.error("the profile cannot be saved to %s: %s", folder, error)
        self.runner.reader = StreamReader(profile)
        again = sorted({name.split("#")[0] for name in report.retake + report.misread + report.left_out})
        log.info("calibrated from %d pictures, saved to %s; again: %s", report.pictures, folder, again or "none")
        loop.outputs.notice(Notice(t_ms, "calibrated_again", {"cards": again}) if again else Notice(t_ms, "calibrated"))

    def _apply(self, choice: Choice, t_ms: int) -> None:
        if choice.calibrate:
            self.guide = Guide(choice.lang, laid_out=choice.calibrate == "laid_out")
            choice = replace(choice, calibrate=False)
            self.runner.paused = True
        before, self.choice = self.choice, choice
        self.feedback.panel.lang = choice.lang
        sounder = self.feedback.sounder
        if sounder is not None:
            sounder.volume, sounder.muted = choice.volume, choice.volume == 0.0
        if choice.starts_new_session(before):
            loop = self.runner.loop
            if loop.set_up(Start(choice.seats, choice.rules, _session_options(choice)), t_ms):
                loop.outputs.notice(Notice(t_ms, "set_up", {"seats": list(choice.seats)}))
            else:
                loop.outputs.notice(Notice(t_ms, "set_up_later"))

    def run(self, stop: threading.Event | None = None, before_frame: Callable[[int], None] | None = None) -> None:
        presses = list(self.episode.buttons) if self.episode is not None and self.buttons is None else []

        def due(t_ms: int) -> None:
            while presses and presses[0].t_ms <= t_ms:
                self.runner.press(presses.pop(0).name)
            if before_frame is not None:
                before_frame(t_ms)

        try:
            self.runner.run(stop, due)
        finally:
            self.close()

    def write_record(self) -> Path:
        """The games as the companion judged them, in the ``elfer check`` format."""
        folder = self.config.path("store", "records")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / time.strftime("session-%Y%m%d-%H%M%S.jsonl")
        partial = path.with_suffix(".part")
        with open(partial, "w", encoding="utf-8") as out:
            self.journal.write(out)
        partial.replace(path)
        return path

    def close(self) -> None:
        if self.buttons is not None:
            self.buttons.close()
        if self.feedback.sounder is not None:
            self.feedback.sounder.wait(2.0)
            self.feedback.sounder.close()
        if self.feedback.screen is not None:
            self.feedback.screen.close()


def build(config: Config, extra_outputs=(), need_buttons: bool = True) -> App:
    """The device from its config; raises :class:`SetupError` when it cannot play at all
    (without buttons only where ``need_buttons``: a dry run reports what it found)."""
    from ..device import Episode, EpisodeError
    from ..vision import Profile, ProfileError, StreamReader

    found: list[str] = []
    game = config["game"]
    episode = None
    if config["camera"]["backend"] == "episode":
        try:
            episode = Episode.load(config.path("camera", "episode"))
        except EpisodeError as error:
            raise SetupError(str(error)) from None
    profile_path = config.path("vision", "profile")
    profile_problem = None
    try:
        profile = Profile.load(profile_path) if profile_path else None
    except ProfileError as error:
        # a dead box helps nobody: the screen says so, and the shipped deck's profile reads meanwhile
        profile, profile_problem = None, f"vision.profile: {error}"
        found.append(f"profile: not usable ({error}); the shipped reference deck's profile reads instead")
        log.error("%s; reading with the shipped reference deck's profile", profile_problem)
    panel = Panel(game["lang"], turn_tick=config["buzzer"]["turn_tick"])
    feedback = Feedback(panel, _screen(config, found), _sounder(config, found))
    journal = Journal()
    players = tuple(episode.meta["players"]) if episode is not None else tuple(game["players"])
    rules = episode.meta.get("rules", "classic") if episode is not None else game["rules"]
    loop = RefereeLoop(Start(players, rules, config.session_options), Fanout(feedback, journal, *extra_outputs),
                       opener=episode.opener if episode is not None else None)
    if profile_problem is not None:
        loop.outputs.notice(Notice(0, "profile"))
    runner = Runner(loop, StreamReader(profile), open_camera(config["camera"], episode))
    buttons = _buttons(config, runner, found)
    if buttons is None and episode is None and need_buttons:
        raise SetupError("no buttons: the companion cannot be played without NEXT, DRAW and BACK")
    app = App(config, runner, journal, feedback, buttons, episode, found)
    names = tuple(players) + tuple(n for n in SPARE_NAMES if n not in players)
    session = ("limit", game["limit"]) if game["limit"] else ("games", game["games"] or len(players))
    app.choice = Choice(names[:6], len(players), len(players) - 1, rules, session, game["tiebreak"],
                        config["buzzer"]["volume"] if not config["buzzer"]["muted"] else 0.0, game["lang"])
    runner.menu = app.menu_press
    return app


def _session_options(choice: Choice) -> dict:
    options = {choice.session[0]: choice.session[1]}
    if choice.tiebreak != "share":
        options["tiebreak"] = choice.tiebreak
    return options


def _opened(what: str, make: Callable, found: list[str], without: str, errors=(Exception,), failed="not usable"):
    """``make()``, or None where it fails (said in ``found`` and the log): the device does
    without what it cannot reach. gpiozero raises its own kinds for a missing pin driver
    or a pin in use, hence any exception for the GPIO devices."""
    try:
        return make()
    except errors as error:
        found.append(f"{what}: {failed} ({error}); {without}")
        log.warning("no %s: %s", what, error)
        return None


def _screen(config: Config, found: list[str]) -> Screen | None:
    display = config["display"]
    if display["kind"] == "none":
        found.append("display: none configured (the log shows what it would)")
        return None
    screen = _opened("display", lambda: Screen(open_display(display["kind"], display["i2c_port"],
                                                            display["address"], display["rotate"])),
                     found, "the log shows what it would", (DisplayError,), "not found")
    if screen is not None:
        found.append(f"display: {display['kind']} at I2C {display['i2c_port']}/0x{display['address']:02x}")
    return screen


def _sounder(config: Config, found: list[str]):
    from .buzzer import Sounder

    buzzer = config["buzzer"]
    if buzzer["kind"] == "none":
        found.append("buzzer: none configured (silent)")
        return None
    sounder = _opened("buzzer", lambda: Sounder(buzzer["pin"], buzzer["kind"], buzzer["volume"], buzzer["muted"]),
                      found, "silent")
    if sounder is not None:
        found.append(f"buzzer: {buzzer['kind']} on GPIO {buzzer['pin']}" + (" (muted)" if buzzer["muted"] else ""))
    return sounder


def _buttons(config: Config, runner: Runner, found: list[str]) -> ButtonPanel | None:
    settings = config["buttons"]
    pins = {name: settings[name] for name in ("next", "draw", "back")}
    buttons = _opened("buttons", lambda: ButtonPanel(ButtonSettings(pins, bounce_s=settings["bounce_ms"] / 1000 or None,
                                                                    menu_s=settings["menu_ms"] / 1000), runner.press),
                      found, "no play without them")
    if buttons is not None:
        found.append(f"buttons: NEXT GPIO {pins['next']}, DRAW GPIO {pins['draw']}, BACK GPIO {pins['back']}")
    return buttons
