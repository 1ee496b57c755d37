"""``companion.toml``: everything the device needs, each with a documented default.

Read with ``tomllib``; every problem is named on a line of its own (which key, what was
wrong, what is allowed) and nothing starts half-configured. ``docs/device.md`` lists
the keys; :data:`DEFAULTS` is the same list as data.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..rules.presets import PresetError, get_preset

DISPLAYS = ("ssd1306", "sh1106", "none")
BUZZERS = ("tonal", "active", "none")
CAMERAS = ("picamera2", "usb", "episode")

DEFAULTS: Mapping[str, Mapping[str, Any]] = {
    "game": {"players": ["Anna", "Ben", "Cem"], "rules": "classic", "games": 0, "limit": 0, "tiebreak": "share",
             "lang": "de"},
    "buttons": {"next": 5, "draw": 6, "back": 13, "bounce_ms": 30, "menu_ms": 1500},
    "buzzer": {"kind": "tonal", "pin": 12, "volume": 0.8, "muted": False, "turn_tick": False},
    "display": {"kind": "ssd1306", "i2c_port": 1, "address": 0x3C, "rotate": 0},
    "camera": {"backend": "picamera2", "index": 0, "episode": "", "width": 1280, "height": 720, "fps": 10},
    "vision": {"profile": ""},
    "store": {"records": "records"},
}


class ConfigError(ValueError):
    """The config cannot be used: ``problems`` holds one line per problem."""

    def __init__(self, source: str, problems: list[str]):
        self.problems = [f"{source}: {problem}" for problem in problems]
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class Config:
    values: Mapping[str, Mapping[str, Any]]
    folder: Path  # relative paths in the config are relative to its folder

    def __getitem__(self, section: str) -> Mapping[str, Any]:
        return self.values[section]

    def path(self, section: str, key: str) -> Path | None:
        text = self.values[section][key]
        return None if not text else (self.folder / text).expanduser()

    @property
    def session_options(self) -> dict[str, Any]:
        game = self.values["game"]
        options: dict[str, Any] = {"tiebreak": game["tiebreak"]} if game["tiebreak"] != "share" else {}
        if game["games"]:
            options["games"] = game["games"]
        if game["limit"]:
            options["limit"] = game["limit"]
        return options


def load_config(path: Path | None) -> Config:
    """The config at ``path`` over the defaults (None: the defaults alone)."""
    if path is None:
        return parse_config({}, "defaults", Path.cwd())
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ConfigError(str(path), [f"cannot be read: {error.strerror or error}"]) from None
    except UnicodeDecodeError:
        raise ConfigError(str(path), ["is not UTF-8 text"]) from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(str(path), [f"is not valid TOML: {error}"]) from None
    return parse_config(data, str(path), path.resolve().parent)


def parse_config(data: Mapping[str, Any], source: str, folder: Path) -> Config:
    problems: list[str] = []
    values = {section: dict(keys) for section, keys in DEFAULTS.items()}
    for section, keys in data.items():
        if section not in DEFAULTS:
            problems.append(f"[{section}]: unknown section (allowed: {', '.join(DEFAULTS)})")
            continue
        if not isinstance(keys, dict):
            problems.append(f"{section}: must be a table [{section}]")
            continue
        for key, value in keys.items():
            if key not in DEFAULTS[section]:
                problems.append(f"{section}.{key}: unknown key (allowed: {', '.join(DEFAULTS[section])})")
                continue
            default = DEFAULTS[section][key]
            if type(value) is not type(default) and not (type(default) is float and type(value) is int):
                problems.append(f"{section}.{key}: expected {_kind(default)}, not {value!r}")
                continue
            values[section][key] = value
    problems += _check(values)  # the keys that were read, with defaults for the rest
    if problems:
        raise ConfigError(source, problems)
    return Config(values, folder)


def _kind(default: Any) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text in quotes",
            list: "a list of names"}[type(default)]


def _check(values: Mapping[str, Mapping[str, Any]]) -> list[str]:
    problems = []

    def need(ok: bool, key: str, what: str) -> None:
        if not ok:
            section, name = key.split(".")
            problems.append(f"{key}: {what}, not {values[section][name]!r}")

    game, buttons, buzzer = values["game"], values["buttons"], values["buzzer"]
    display, camera = values["display"], values["camera"]
    players = game["players"]
    need(2 <= len(players) <= 6 and all(isinstance(p, str) and p.strip() for p in players)
         and len(set(players)) == len(players), "game.players", "2 to 6 different names")
    try:
        get_preset(game["rules"]).check_players(len(players))
    except PresetError as error:
        problems.append(f"game.rules: {error}")
    need(0 <= game["games"] <= 100, "game.games", "0 (one game per player) to 100 games")
    need(0 <= game["limit"] <= 10000, "game.limit", "0 (no limit) or a penalty limit such as 500")
    need(not (game["games"] and game["limit"]), "game.limit", "either games or a limit, not both")
    need(game["tiebreak"] in ("share", "playoff"), "game.tiebreak", "share or playoff")
    need(game["lang"] in ("de", "en"), "game.lang", "de or en")
    pins = {f"buttons.{name}": buttons[name] for name in ("next", "draw", "back")}
    if buzzer["kind"] != "none":
        pins["buzzer.pin"] = buzzer["pin"]
    for key, pin in pins.items():
        need(2 <= pin <= 27, key, "a BCM GPIO number from 2 to 27")
    if len(set(pins.values())) < len(pins):
        problems.append(f"buttons/buzzer: two of them share a pin ({', '.join(f'{k}={v}' for k, v in pins.items())})")
    need(0 <= buttons["bounce_ms"] <= 200, "buttons.bounce_ms", "0 to 200 ms")
    need(300 <= buttons["menu_ms"] <= 5000, "buttons.menu_ms", "300 to 5000 ms")
    need(buzzer["kind"] in BUZZERS, "buzzer.kind", " or ".join(BUZZERS))
    need(0.0 <= buzzer["volume"] <= 1.0, "buzzer.volume", "0 to 1")
    need(display["kind"] in DISPLAYS, "display.kind", " or ".join(DISPLAYS))
    need(0 <= display["i2c_port"] <= 20, "display.i2c_port", "an I2C bus number such as 1")
    need(0x03 <= display["address"] <= 0x77, "display.address", "an I2C address such as 0x3C or 0x3D")
    need(display["rotate"] in (0, 1, 2, 3), "display.rotate", "0, 1, 2 or 3 quarter turns")
    need(camera["backend"] in CAMERAS, "camera.backend", " or ".join(CAMERAS))
    need(camera["backend"] != "episode" or bool(camera["episode"]), "camera.episode",
         "an episode folder (camera.backend is episode)")
    need(0 <= camera["index"] <= 63, "camera.index", "a video device number such as 0")
    need(320 <= camera["width"] <= 4056 and 240 <= camera["height"] <= 3040, "camera.width",
         "a size from 320 × 240 to 4056 × 3040")
    need(1 <= camera["fps"] <= 30, "camera.fps", "1 to 30 frames a second")
    return problems
