"""Vision: what the camera sees on the table. A frame in, the cards that lie whole on it out.

- :class:`TableReader` reads one frame: the play area from its markers, the cards the
  detector proposes, each card's colour and number (or honest doubt).
- :class:`StreamReader` reads a camera's frames in order, reading again only what changed.
- :class:`CardReader` reads one card, upright, against a deck's :class:`Profile`.
- :func:`calibrate` learns a deck's :class:`Profile` from single-card pictures.
- :func:`save_marker_sheet` prints the four play-area markers.

The road of one frame through these modules is told in ``docs/reader.md``. Vision knows
nothing of the rules, the simulator or the benchmarks.
"""

from .area import AreaView, PlayArea
from .calibration import CalibrationError, CalibrationReport, calibrate
from .calibration_notes import REPORT_TEXTS
from .card_reader import CardReader, CardReading
from .detect import CardDetector, DetectorError
from .markers import CORNER_IDS, MARKER_SIZE_MM, PLAY_AREA_MM, detect_markers, save_marker_sheet
from .profile import Profile, ProfileError, default_profile
from .stream import StreamReader
from .table_reader import SeenCard, TableReader, TableReading

__all__ = ["AreaView", "CORNER_IDS", "CalibrationError", "CalibrationReport", "CardDetector", "CardReader",
           "CardReading", "DetectorError", "MARKER_SIZE_MM", "PLAY_AREA_MM", "PlayArea", "Profile", "ProfileError",
           "REPORT_TEXTS", "SeenCard", "StreamReader", "TableReader", "TableReading", "calibrate", "default_profile",
           "detect_markers", "save_marker_sheet"]
