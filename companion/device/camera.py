"""Camera backends: the Pi camera (picamera2), a USB webcam (OpenCV), an episode folder.

Each yields ``(t_ms, picture)`` at its pace, the picture BGR as OpenCV reads it, or None
while the camera is lost (unplugged, the ribbon loose): the device then says so and
play goes on with the buttons, and the camera is tried again every ``retry_s``.
picamera2 needs libcamera from the Pi's OS, so it is imported only when that backend
is opened.
"""

from __future__ import annotations

import logging
import time
from typing import Callable, Iterator

import numpy as np

log = logging.getLogger(__package__)


class CameraError(RuntimeError):
    """The camera cannot be opened at all."""


class LiveCamera:
    """A camera read at ``fps`` by the clock: ``open`` makes the device, ``grab`` takes a picture."""

    retry_s = 2.0

    def __init__(self, fps: float, clock: Callable[[], float] = time.monotonic):
        self.period = 1.0 / fps
        self.clock = clock
        self.device = None
        self._lost_at: float | None = None

    def frames(self) -> Iterator[tuple[int, np.ndarray | None]]:
        started = self.clock()
        due = started
        while True:
            picture = self._picture()
            yield int(round((self.clock() - started) * 1000)), picture
            due += self.period
            time.sleep(max(0.0, due - self.clock()))

    def _picture(self) -> np.ndarray | None:
        if self.device is None:
            if self._lost_at is not None and self.clock() - self._lost_at < self.retry_s:
                return None
            try:
                self.device = self.open()
            except (CameraError, OSError, RuntimeError) as error:
                self._lost(f"cannot be opened: {error}")
                return None
        try:
            picture = self.grab()
        except (OSError, RuntimeError) as error:
            picture = None
            log.warning("camera: %s", error)
        if picture is None:
            self._lost("gave no picture")
            self.close()
        else:
            self._lost_at = None
        return picture

    def _lost(self, why: str) -> None:
        if self._lost_at is None:
            log.error("camera %s: trying again every %.0f s", why, self.retry_s)
        self._lost_at = self.clock()

    def open(self):
        raise NotImplementedError

    def grab(self) -> np.ndarray | None:
        raise NotImplementedError

    def close(self) -> None:
        self.device = None


class USBCamera(LiveCamera):
    def __init__(self, index: int, width: int, height: int, fps: float):
        super().__init__(fps)
        self.index, self.size = index, (width, height)

    def open(self):
        import cv2

        capture = cv2.VideoCapture(self.index)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"no video device {self.index}")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return capture

    def grab(self) -> np.ndarray | None:
        ok, picture = self.device.read()
        return picture if ok else None

    def close(self) -> None:
        if self.device is not None:
            self.device.release()
        self.device = None


class PiCamera(LiveCamera):
    """The Pi camera through picamera2 (from the OS: ``apt install python3-picamera2``)."""

    def __init__(self, width: int, height: int, fps: float):
        super().__init__(fps)
        self.size = (width, height)

    def open(self):
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise CameraError("picamera2 is not installed: on a Pi, apt install python3-picamera2 and make "
                              "the venv with --system-site-packages") from error
        camera = Picamera2()
        # "RGB888" is, in picamera2's naming, the byte order B, G, R: what OpenCV expects
        camera.configure(camera.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
        camera.start()
        return camera

    def grab(self) -> np.ndarray | None:
        return self.device.capture_array("main")

    def close(self) -> None:
        if self.device is not None:
            try:
                self.device.close()
            except RuntimeError:
                pass
        self.device = None


class EpisodeCamera:
    """An episode's frames at their own times (replays, tests): as fast as they are read."""

    def __init__(self, episode):
        self.episode = episode

    def frames(self) -> Iterator[tuple[int, np.ndarray | None]]:
        for index in range(len(self.episode.frames)):
            yield self.episode.frame_time(index), self.episode.picture(index)

    def close(self) -> None:
        pass


def open_camera(settings, episode=None):
    """The backend the config's ``[camera]`` names (``episode``: an ``Episode`` already loaded)."""
    backend = settings["backend"]
    if backend == "episode":
        return EpisodeCamera(episode)
    if backend == "usb":
        return USBCamera(settings["index"], settings["width"], settings["height"], settings["fps"])
    return PiCamera(settings["width"], settings["height"], settings["fps"])


def probe(camera) -> str:
    """What the dry run says of the camera: whether it gives a picture, and its size."""
    if isinstance(camera, EpisodeCamera):
        return f"camera: episode {camera.episode.folder} ({len(camera.episode.frames)} frames)"
    try:
        camera.device = camera.open()
        picture = camera.grab()
    except (CameraError, OSError, RuntimeError) as error:
        return f"camera: not usable ({error})"
    finally:
        camera.close()
    if picture is None:
        return "camera: opened, but gave no picture"
    return f"camera: {type(camera).__name__}, pictures of {picture.shape[1]} x {picture.shape[0]}"
