"""A few chart primitives written as SVG text: axes, log and linear scales, marks, legends.

Why not matplotlib: the report must be one self-contained file and its output byte-for-byte
repeatable (golden tests), and the arena's environment does not guarantee matplotlib. The
charts here are simple (strip plots, bars, a scatter), so a hundred lines of SVG do it, every
label is escaped (task names and agent labels come from run folders), and every mark carries a
<title> tooltip.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

PALETTE = ("#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2",
           "#97bbf5", "#9c6b4e", "#9498a0")
FAIL = "#b0b0b0"


def color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def fmt(value: float) -> str:
    """Numbers in SVG attributes: short and stable."""
    return f"{value:.1f}".rstrip("0").rstrip(".") if abs(value) < 1e6 else f"{value:.0f}"


def tick_label(value: float) -> str:
    if value >= 100 or value == int(value):
        return f"{value:g}"
    return f"{value:.2g}" if value < 1 else f"{value:.1f}".rstrip("0").rstrip(".")


@dataclass
class Scale:
    """Data -> pixels on one axis; `log` for speedups (ratios read symmetrically around 1)."""

    low: float
    high: float
    start: float
    end: float
    log: bool = False

    def __post_init__(self) -> None:
        if self.log:
            self.low, self.high = max(self.low, 1e-6), max(self.high, 1e-6)
        if self.high <= self.low:
            self.low, self.high = (self.low / 2, self.low * 2) if self.log else \
                (self.low - 1, self.low + 1)

    def __call__(self, value: float) -> float:
        if self.log:
            lo, hi, v = math.log(self.low), math.log(self.high), math.log(max(value, 1e-6))
        else:
            lo, hi, v = self.low, self.high, value
        return self.start + (v - lo) / (hi - lo) * (self.end - self.start)

    def ticks(self) -> list[float]:
        if self.log:
            candidates = [m * 10.0 ** e for e in range(-3, 4) for m in (1, 2, 5)]
            inside = [c for c in candidates if self.low <= c <= self.high]
            if len(inside) < 3:
                extra = [m * 10.0 ** e for e in range(-3, 4) for m in (1.5, 3, 7)]
                inside = sorted(inside + [c for c in extra if self.low <= c <= self.high])
            return inside
        span = self.high - self.low
        step = 10 ** math.floor(math.log10(span / 4)) if span > 0 else 1
        for mult in (1, 2, 5, 10):
            if span / (step * mult) <= 6:
                step *= mult
                break
        first = math.ceil(self.low / step) * step
        return [first + i * step for i in range(int((self.high - first) / step + 1e-9) + 1)]


def log_domain(values: Sequence[float], pad: float = 1.25) -> tuple[float, float]:
    """A log axis covering the values and 1.0 (the baseline), padded a little."""
    finite = [v for v in values if v and v > 0 and math.isfinite(v)] or [1.0]
    return min(min(finite), 1.0) / pad, max(max(finite), 1.0) * pad


@dataclass
class Chart:
    """An SVG document in the making: a plot area inside margins, marks appended as text."""

    width: int
    height: int
    title: str
    left: int = 60
    right: int = 20
    top: int = 30
    bottom: int = 40
    frame: bool = True
    parts: list[str] = field(default_factory=list)

    @property
    def x0(self) -> float:
        return self.left

    @property
    def x1(self) -> float:
        return self.width - self.right

    @property
    def y0(self) -> float:
        return self.height - self.bottom

    @property
    def y1(self) -> float:
        return self.top

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, label: str, anchor: str = "middle", size: int = 11,
             extra: str = "") -> None:
        self.add(f'<text x="{fmt(x)}" y="{fmt(y)}" text-anchor="{anchor}" '
                 f'font-size="{size}"{extra}>{escape(label)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#ccc",
             dash: str = "") -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{fmt(x1)}" y1="{fmt(y1)}" x2="{fmt(x2)}" y2="{fmt(y2)}" '
                 f'stroke="{stroke}"{extra}/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str, tip: str = "") -> None:
        title = f"<title>{escape(tip)}</title>" if tip else ""
        self.add(f'<rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(max(w, 0))}" '
                 f'height="{fmt(max(h, 0))}" fill="{fill}">{title}</rect>')

    def dot(self, x: float, y: float, fill: str, tip: str, r: float = 3.5,
            hollow: bool = False) -> None:
        paint = f'fill="none" stroke="{fill}" stroke-width="1.5"' if hollow else \
            f'fill="{fill}" fill-opacity="0.8"'
        self.add(f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" {paint}>'
                 f"<title>{escape(tip)}</title></circle>")

    def y_axis(self, scale: Scale, label: str, baseline: float | None = None) -> None:
        for tick in scale.ticks():
            y = scale(tick)
            self.line(self.x0, y, self.x1, y, stroke="#eee")
            self.text(self.x0 - 5, y + 4, tick_label(tick), anchor="end", size=10)
        if baseline is not None:
            self.line(self.x0, scale(baseline), self.x1, scale(baseline), stroke="#888",
                      dash="4 3")
        self.text(14, (self.y0 + self.y1) / 2, label, size=11,
                  extra=f' transform="rotate(-90 14 {fmt((self.y0 + self.y1) / 2)})"')

    def x_axis(self, scale: Scale, label: str, baseline: float | None = None) -> None:
        for tick in scale.ticks():
            x = scale(tick)
            self.line(x, self.y0, x, self.y1, stroke="#eee")
            self.text(x, self.y0 + 14, tick_label(tick), size=10)
        if baseline is not None:
            self.line(scale(baseline), self.y0, scale(baseline), self.y1, stroke="#888",
                      dash="4 3")
        self.text((self.x0 + self.x1) / 2, self.height - 6, label)

    def legend(self, names: Sequence[str], x: float | None = None) -> None:
        x = self.x0 if x is None else x
        for index, name in enumerate(names):
            self.rect(x, 8, 10, 10, color(index))
            self.text(x + 14, 17, name, anchor="start", size=11)
            x += 24 + 7 * len(name)

    def svg(self) -> str:
        head = (f'<svg class="chart" role="img" '
                f'width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="sans-serif">'
                f"<title>{escape(self.title)}</title>")
        frame = "" if not self.frame else (
            f'<rect x="{fmt(self.x0)}" y="{fmt(self.y1)}" width="{fmt(self.x1 - self.x0)}" '
            f'height="{fmt(self.y0 - self.y1)}" fill="none" stroke="#ccc"/>')
        return head + "".join(self.parts) + frame + "</svg>"


def jitter(index: int, spread: float) -> float:
    """A deterministic offset in [-spread, spread] (golden output: no random numbers)."""
    return ((index * 0.618034) % 1.0 - 0.5) * 2 * spread
