"""A browser window's size in the page terminal's cells, before the page has run anything.

The page's terminal is xterm.js drawing 16px Roboto Mono on canvases, fitted to the whole window
(`net/web_page/static/page.js`). Its cell follows from the font's own metrics as Chromium measures
them (whole pixels of ascent and descent) and xterm rounds them to device pixels, so a window's
size in CSS pixels and its device pixel ratio give the terminal's columns and rows. Chromium says
those in its client hints (Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-DPR) once the
server has asked for them (ACCEPT_CH, on the invite link's answer and the page's): the door then
starts a new browser's session at its size as it serves the page, rather than when the page's socket
comes. `early.js` works out the same in the page for the socket's address. A browser that measures
the font otherwise has its session told its size by the page, as any window that changes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from net.pty_session import clamped_size

FONT_SIZE = 16  # CSS pixels (the page's data-font-size)
UNITS_PER_EM, ADVANCE, ASCENT, DESCENT = 2048, 1229, 2146, 555  # Roboto Mono's head, hmtx and hhea
ACCEPT_CH = "Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-DPR"
MAX_PIXELS = 100_000  # a window's side in CSS pixels, at most, as a hint gives it
RATIOS = (0.25, 16.0)  # device pixels to a CSS pixel, least and most


def cell(ratio: float) -> tuple[float, float]:
    """A terminal cell's width and height in CSS pixels at a device pixel ratio."""
    em = FONT_SIZE / UNITS_PER_EM
    width = math.floor(ADVANCE * em * ratio) / ratio
    height = math.ceil((round(ASCENT * em) + round(DESCENT * em)) * ratio) / ratio
    return width, height


def window_in_cells(width: float, height: float, ratio: float) -> tuple[int, int]:
    """The terminal's columns and rows for a window of `width` by `height` CSS pixels, clamped as a
    terminal's size is anywhere (`net.pty_session.clamped_size`)."""
    cell_width, cell_height = cell(ratio)
    columns = max(2, math.floor(width / cell_width))
    rows = max(1, math.floor(height / cell_height))
    return clamped_size(columns, rows)[:2]


def size_from_hints(headers: Mapping[str, str]) -> tuple[int, int] | None:
    """The terminal's size for the window a request's client hints describe; None without them, or
    with any that is not a sensible number (a hint is the browser's word, and anyone can send one)."""
    try:
        width = int(headers.get("Sec-CH-Viewport-Width", "")[:7])
        height = int(headers.get("Sec-CH-Viewport-Height", "")[:7])
        ratio = float(headers.get("Sec-CH-DPR", "1")[:8])
    except ValueError:
        return None
    if not (0 < width <= MAX_PIXELS and 0 < height <= MAX_PIXELS and RATIOS[0] <= ratio <= RATIOS[1]):
        return None
    return window_in_cells(width, height, ratio)
