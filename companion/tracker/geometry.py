"""Card outlines as the tracker needs them: where a card's centre is, how big it is,
and whether a point lies on it. Outlines are four corners in frame pixels."""

from __future__ import annotations

from typing import Sequence

Point = tuple[float, float]
Outline = tuple[Point, Point, Point, Point]


def outline_of(polygon: Sequence[Sequence[float]]) -> Outline:
    """A reading's polygon (a 4 × 2 array or list) as plain floats."""
    return tuple((float(x), float(y)) for x, y in polygon)  # type: ignore[return-value]


def centre(outline: Outline) -> Point:
    return (sum(x for x, _ in outline) / 4.0, sum(y for _, y in outline) / 4.0)


def short_side(outline: Outline) -> float:
    """The card's width in pixels (its shorter side)."""
    sides = [_distance(outline[i], outline[(i + 1) % 4]) for i in range(4)]
    return min((sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0)


def contains(outline: Outline, point: Point) -> bool:
    """Whether the point lies inside the (convex) outline, whichever way it winds."""
    signs = []
    for i in range(4):
        (x0, y0), (x1, y1) = outline[i], outline[(i + 1) % 4]
        signs.append((x1 - x0) * (point[1] - y0) - (y1 - y0) * (point[0] - x0))
    return all(s >= 0 for s in signs) or all(s <= 0 for s in signs)


def overlaps(a: Outline, b: Outline) -> bool:
    """Whether two outlines overlap: a corner or the centre of one lies on the other."""
    return any(contains(b, p) for p in (*a, centre(a))) or any(contains(a, p) for p in (*b, centre(b)))


def bounds(outline: Outline) -> tuple[float, float, float, float]:
    """left, top, right, bottom"""
    xs, ys = [x for x, _ in outline], [y for _, y in outline]
    return min(xs), min(ys), max(xs), max(ys)


def intersect(a: Outline, b: Outline) -> bool:
    """Whether two convex outlines share any area (no line between their corners separates
    them): a thin arm across a card touches it though no corner of either lies on the other."""
    for shape in (a, b):
        for i in range(4):
            (x0, y0), (x1, y1) = shape[i], shape[(i + 1) % 4]
            normal = (y0 - y1, x1 - x0)
            on_a = [normal[0] * x + normal[1] * y for x, y in a]
            on_b = [normal[0] * x + normal[1] * y for x, y in b]
            if max(on_a) < min(on_b) or max(on_b) < min(on_a):
                return False
    return True


def same_place(a: Outline, b: Outline, share: float) -> bool:
    """Whether two outlines lie in the same place: centres closer than ``share`` of a card's width."""
    return _distance(centre(a), centre(b)) <= share * min(short_side(a), short_side(b))


def _distance(a: Point, b: Point) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5
