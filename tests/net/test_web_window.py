"""A browser window's size in the page terminal's cells, from its client hints (net.web_window)."""

from __future__ import annotations

import pytest

from net.pty_session import clamped_size
from net.web_window import cell, size_from_hints, window_in_cells


def hints(width: str, height: str, ratio: str | None = "1") -> dict[str, str]:
    given = {"Sec-CH-Viewport-Width": width, "Sec-CH-Viewport-Height": height}
    return given if ratio is None else {**given, "Sec-CH-DPR": ratio}


def test_a_cell_of_16px_roboto_mono_is_9_by_21_css_pixels_and_rounds_to_device_pixels():
    assert cell(1.0) == (9.0, 21.0)
    assert cell(2.0) == (9.5, 21.0)  # 19 device pixels wide: 9.6 CSS pixels, rounded down in device pixels
    assert cell(1.5) == (14 / 1.5, 32 / 1.5)


def test_the_hints_of_a_window_give_the_terminal_its_columns_and_rows():
    assert size_from_hints(hints("1000", "640")) == (111, 30) == window_in_cells(1000, 640, 1.0)
    assert size_from_hints(hints("1000", "640", None)) == (111, 30)  # no ratio said: 1
    assert size_from_hints(hints("900", "560", "2")) == (94, 26)
    assert size_from_hints(hints("10", "10")) == clamped_size(2, 1)[:2]  # a tiny window: the least terminal


@pytest.mark.parametrize(
    "given",
    [
        {},
        hints("1000", ""),
        hints("wide", "640"),
        hints("-1000", "640"),
        hints("0", "640"),
        hints("1000", "99999999"),
        hints("1000", "640", "nan"),
        hints("1000", "640", "inf"),
        hints("1000", "640", "0"),
        hints("1000", "640", "100"),
        hints("1" * 5000, "640"),
    ],
)
def test_hints_that_are_missing_or_not_sensible_give_no_size(given):
    assert size_from_hints(given) is None
