"""The device's face: screens as pure functions of state, sounds as data, texts in German and English.

``screens`` draws 128×64 one-bit images, ``panel`` decides which one the table sees
and which sound it hears from what the referee loop said, ``sounds`` holds the buzzer's
patterns. Nothing here touches hardware: ``companion.device`` shows and plays.
"""

from .panel import Panel
from .screens import HEIGHT, WIDTH, to_text
from .sounds import SOUNDS

__all__ = ["HEIGHT", "Panel", "SOUNDS", "WIDTH", "to_text"]
