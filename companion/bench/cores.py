"""Benchmarks measure one core: the Raspberry Pi's other cores are busy with the camera and
the rest of the loop, and a shared machine's second core is noisy."""

from __future__ import annotations

import os


def pin_to_one_core(pin: bool = True) -> str:
    """Pin this process to the lowest core it may use (``pin`` False, or an OS without
    affinity: left as it is); says which, for a benchmark's header."""
    if pin and hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned"
