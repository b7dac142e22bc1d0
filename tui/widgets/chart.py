"""A small chart, drawn by textual-plotext (plotext's braille lines and block bars), which stays
readable at 80x24, in 16 colours and over SSH. Its data is given with `show` (one series) or
`show_lines` (a line per series, with a legend); a chart with nothing to draw says so instead.

Why textual-plotext rather than textual-plot: tried side by side at 80x24 with TERM=xterm (16
colours), two rating lines in half the width each, both were readable (textual-plot in block
cells, plotext in braille). textual-plotext is pure Python, about 1 MB with plotext, and draws
bars too (the loss per match); textual-plot 0.10 needs numpy (some 70 MB installed) and
textual-hires-canvas."""

from __future__ import annotations

from collections.abc import Sequence

from textual_plotext import PlotextPlot

ANSI_PLOT_THEME = "pro"  # plotext's: the terminal's own colours, lines in bright blue, green, red...
Series = tuple[str, Sequence[float], Sequence[float]]  # (label, xs, ys)


class Chart(PlotextPlot):
    """A line (`kind="line"`) or bar (`kind="bar"`) chart with a title; x values are counts (match
    or round numbers), shown as whole numbers."""

    def __init__(
        self,
        title: str,
        kind: str = "line",
        y_format: str = "{:.0f}",
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.y_format = y_format
        if kind not in ("line", "bar"):
            raise ValueError(f"a chart is a line or bars, not {kind!r}")
        self.title = title
        self.kind = kind
        self.series: list[Series] = []
        self.empty_words = "nothing to draw yet"

    def show(self, xs: Sequence[float], ys: Sequence[float], empty_words: str | None = None) -> None:
        self.show_lines([("", list(xs), list(ys))] if len(ys) else [], empty_words)

    def show_lines(self, series: Sequence[Series], empty_words: str | None = None) -> None:
        self.series = [(label, list(xs), list(ys)) for label, xs, ys in series if len(ys)]
        if empty_words is not None:
            self.empty_words = empty_words
        self._draw()
        self.refresh()

    def _draw(self) -> None:
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        plt.title(self.title if self.series else f"{self.title}: {self.empty_words}")
        if not self.series:
            plt.xticks([])
            plt.yticks([])
            return
        xs_all: list[float] = []
        for label, xs, ys in self.series:
            xs_all += xs
            if self.kind == "bar":
                plt.bar(xs, ys, width=0.6, label=label or None)
            else:
                plt.plot(xs, ys, marker="braille", label=label or None)
        plt.xticks(_ticks(xs_all))
        if self.kind == "bar":  # a few bars stay bars, not a wall
            plt.xlim(min(xs_all) - 1, max(max(xs_all), min(xs_all) + 9) + 1)
        ys_all = [y for _label, _xs, ys in self.series for y in ys] + ([0.0] if self.kind == "bar" else [])
        values = _levels(min(ys_all), max(ys_all))
        plt.yticks(values, [self.y_format.format(value) for value in values])

    def on_mount(self) -> None:
        super().on_mount()
        self.app.theme_changed_signal.subscribe(self, lambda theme: self._follow(theme.name))
        self._follow(self.app.theme)
        self._draw()

    def _follow(self, app_theme: str) -> None:
        """The app's colours, except in an ANSI theme, whose colours are the terminal's own: there
        the plot keeps the terminal's too (its "auto" colours would come out black on black) and
        draws its lines in the named ANSI colours."""
        self.theme = ANSI_PLOT_THEME if app_theme.startswith("ansi") else "auto"


def _ticks(xs: Sequence[float], most: int = 6) -> list[float]:
    """A few whole-number ticks along the x axis, the first and last among them."""
    if not xs:
        return []
    low, high = int(min(xs)), int(max(xs))
    if high == low:
        return [low]
    step = max(1, round((high - low) / (most - 1)))
    ticks: list[float] = list(range(low, high + 1, step))
    if ticks[-1] != high:
        ticks.append(high)
    return ticks


def _levels(low: float, high: float, count: int = 4) -> list[float]:
    """`count` evenly spaced values from `low` to `high` (one if they are equal)."""
    if high <= low:
        return [low]
    return [low + (high - low) * index / (count - 1) for index in range(count)]
