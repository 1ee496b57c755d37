"""The simulator: bots that play whole sessions, and the synthetic table that renders games
as the camera would see them (deck styles, surfaces, camera, light, hands, episodes).

The bots and sessions load without OpenCV, so ``elfer simulate`` and ``elfer check`` start
quickly; the names below are imported on first use for that reason.
"""

import importlib

_EXPORTS = {
    "BOTS": "bots", "RandomBot": "bots", "SensibleBot": "bots",
    "simulate": "simulate", "play_session": "simulate", "DEFAULT_NAMES": "simulate", "statistics_of": "simulate",
    "RunawayGame": "simulate",
    "STYLES": "deck", "DeckStyle": "deck", "render_card": "deck", "CARD_MM": "deck",
    "SURFACES": "surface",
    "Camera": "camera", "Lighting": "lighting",
    "SceneCamera": "render", "Scenery": "render",
    "play_script": "script",
    "write_episode": "episode", "random_scenery": "episode",
    "render_scene": "datasets", "render_stream": "datasets", "write_cards": "datasets", "write_scenes": "datasets",
    "contact_sheet": "contact",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
