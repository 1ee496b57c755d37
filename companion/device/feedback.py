"""The loop's outputs on the device: the screen the panel chooses, the sound it calls for.

:class:`Feedback` is an ``Outputs`` (``companion.loop.outputs``): the referee loop calls
it for every verdict, notice and state, as it calls a replay's log. Without a display
it only logs; without a buzzer it is silent.
"""

from __future__ import annotations

import logging
from typing import Callable

from PIL import Image

from ..loop.outputs import GameView, Judged, Notice
from ..ui.panel import Panel

log = logging.getLogger(__package__)


class Feedback:
    def __init__(self, panel: Panel, screen=None, sounder=None,
                 on_image: Callable[[Image.Image], None] | None = None):
        """``screen``: a ``display.Screen`` (or None); ``sounder``: a ``buzzer.Sounder``
        (or None); ``on_image``: called with every new screen image (the demo's terminal
        view and GIF)."""
        self.panel, self.screen, self.sounder, self.on_image = panel, screen, sounder, on_image
        self.image: Image.Image | None = None
        self._over: Image.Image | None = None  # a screen over the panel's (the setup menu)

    def overlay(self, image: Image.Image | None) -> None:
        """Show ``image`` over whatever the panel would show, until called with None."""
        self._over = image
        self._show()

    def verdict(self, judged: Judged) -> None:
        log.info("%s: %s", judged.event, judged.verdict.message(self.panel.lang) or "ok")
        self._sound(self.panel.verdict(judged))

    def notice(self, notice: Notice) -> None:
        log.info("notice %s: %s", notice.kind, notice.message(self.panel.lang))
        self._sound(self.panel.notice(notice))
        self._show()

    def state(self, view: GameView) -> None:
        self._sound(self.panel.state(view))
        self._show()

    def _sound(self, name: str | None) -> None:
        if name is not None and self.sounder is not None:
            self.sounder.play(name)

    def _show(self) -> None:
        image = self._over if self._over is not None else self.panel.image()
        if self.image is not None and image.tobytes() == self.image.tobytes():
            return
        self.image = image
        if self.screen is not None:
            self.screen.show(image)
        if self.on_image is not None:
            self.on_image(image)
