"""The TrueType fonts bundled with the package (DejaVu: Pillow's default font has no umlauts)."""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "assets" / "fonts"


@functools.lru_cache(maxsize=64)
def bundled_font(file_name: str, size_px: int) -> ImageFont.FreeTypeFont:
    """The bundled font ``file_name`` (e.g. ``"DejaVuSans-Bold.ttf"``) at ``size_px``."""
    return ImageFont.truetype(str(FONT_DIR / file_name), size_px)
