"""What a developer would reach for first: Tesseract OCR, side by side with our reader.

Both read the number from the same cards, rectified by their true outlines, so the
comparison is about reading alone. Tesseract gets every advantage: the face upright, a
digit whitelist, and the page-segmentation mode and crop that scored best on the first
cards. Needs ``pytesseract`` and Debian's ``tesseract-ocr``; CI does not.
"""

from __future__ import annotations

import statistics
import time

import cv2
import numpy as np

from ..vision.card_reader import rectify

PSM_MODES = (6, 7, 8, 10, 11, 13)
CROPS = {"whole card": (0.0, 1.0), "middle": (0.22, 0.78)}
TUNING_CARDS = 80


def _tesseract_number(pytesseract, face: np.ndarray, psm: int, crop: tuple[float, float]) -> int | None:
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    top, bottom = int(crop[0] * grey.shape[0]), int(crop[1] * grey.shape[0])
    grey = cv2.resize(grey[top:bottom], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
    text = pytesseract.image_to_string(grey, config=f"--psm {psm} -c tessedit_char_whitelist=0123456789")
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits and len(digits) <= 2 else None


def compare_with_tesseract(scenes, reader_for, count: int, seed: int) -> dict:
    """``reader_for(style)``: our card reader for that deck style (its calibrated profile)."""
    try:
        import pytesseract

        pytesseract.get_tesseract_version()
    except Exception as error:  # not installed: the comparison is optional
        print(f"tesseract: skipped ({error.__class__.__name__}: install pytesseract and tesseract-ocr)")
        return {}
    rng = np.random.default_rng(seed)
    pool = [(path, label) for path, labels in scenes for label in labels["cards"] if label["visible_share"] >= 0.98]
    picks = [pool[i] for i in rng.choice(len(pool), size=min(count, len(pool)), replace=False)]
    frames: dict = {}
    label_style = {path: labels["style"] for path, labels in scenes}
    cards = []
    for path, label in picks:
        frame = frames.setdefault(path, cv2.imread(str(path), cv2.IMREAD_COLOR))
        corners = np.array(label["polygon"], np.float32)
        cards.append((frame, corners, rectify(frame, corners), int(label["card"][1:]), reader_for(label_style[path])))
    best = max(((psm, crop) for psm in PSM_MODES for crop in CROPS),
               key=lambda mode: sum(_tesseract_number(pytesseract, face, mode[0], CROPS[mode[1]]) == number
                                    for _, _, face, number, _ in cards[:TUNING_CARDS]))
    ours_right, theirs_right, ours_ms, theirs_ms = 0, 0, [], []
    for frame, corners, face, number, card_reader in cards:
        start = time.perf_counter()
        reading = card_reader.read_card(frame, corners)
        ours_ms.append((time.perf_counter() - start) * 1000)
        ours_right += reading.card is not None and reading.card.number == number
        start = time.perf_counter()
        theirs = _tesseract_number(pytesseract, face, best[0], CROPS[best[1]])
        theirs_ms.append((time.perf_counter() - start) * 1000)
        theirs_right += theirs == number
    n = len(cards)
    result = {
        "cards": n,
        "ours_right": ours_right / n, "ours_ms": statistics.median(ours_ms),
        "tesseract_right": theirs_right / n, "tesseract_ms": statistics.median(theirs_ms),
        "tesseract_mode": f"--psm {best[0]}, {best[1]}",
    }
    print(f"number reading on {n} fully visible cards, rectified by their true outlines:")
    print(f"  ours       {100 * result['ours_right']:7.2f} % right  {result['ours_ms']:7.2f} ms per card (median)")
    print(f"  tesseract  {100 * result['tesseract_right']:7.2f} % right  {result['tesseract_ms']:7.2f} ms per card "
          f"(median; best mode {result['tesseract_mode']}, digit whitelist)")
    return result
