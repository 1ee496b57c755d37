"""The companion's hardware and its stand-ins: camera backends, buttons, buzzer, display.

Today: the episode backend (frames and button presses recorded in a folder). The Pi's
camera, GPIO buttons, buzzer and OLED come with issue 52, each behind the same kind of
small interface, so the loop never knows which it talks to.
"""

from .episode import Episode, EpisodeError

__all__ = ["Episode", "EpisodeError"]
