"""The tracker: a stream of readings in, table events out (laid, lifted, notices).

See ``tracker.py`` for the rules it follows. It imports nothing of the rules engine:
whether a card was legal is the referee loop's question.
"""

from .tracker import Laid, Lifted, TableEvent, TableNotice, Tracker, TrackerSettings

__all__ = ["Laid", "Lifted", "TableEvent", "TableNotice", "Tracker", "TrackerSettings"]
