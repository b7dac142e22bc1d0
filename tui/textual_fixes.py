"""Workarounds for Textual bugs the app runs into, applied once when the app's module is imported.

Each is a no-op once the Textual installed no longer has the bug.

- `StylesCache.get_inner_outer` is an instance method under `functools.lru_cache(1024)`, so the
  cache's keys keep up to 1,024 `StylesCache` objects alive, each with every line its widget drew,
  long after the widget is gone (Textualize/textual#6665). A table recomposes its footer's keys
  every turn and a match opens a screen every round, so a session watching bots at instant speed
  held about 10 MiB of dead widgets' lines within a minute. The pair it computes depends only on
  the two colours, which are cached here without the instance.
"""

from __future__ import annotations

from functools import lru_cache

from textual._styles_cache import StylesCache
from textual.color import Color
from textual.style import Style


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(self: StylesCache, base_background: Color, background: Color) -> tuple[Style, Style]:
    return _inner_outer(base_background, background)


def apply() -> None:
    if hasattr(StylesCache.get_inner_outer, "cache_info"):  # the lru_cache on the method, keyed by the instance
        StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign]


apply()
