"""Workarounds for Textual bugs and costs the app runs into, applied once when the app's module is
imported.

Each is a no-op once the Textual installed no longer has the bug.

- `StylesCache.get_inner_outer` is an instance method under `functools.lru_cache(1024)`, so the
  cache's keys keep up to 1,024 `StylesCache` objects alive, each with every line its widget drew,
  long after the widget is gone (Textualize/textual#6665). A table recomposes its footer's keys
  every turn and a match opens a screen every round, so a session watching bots at instant speed
  held about 10 MiB of dead widgets' lines within a minute. The pair it computes depends only on
  the two colours, which are cached here without the instance.
- Every `Strip` makes its seven small caches (crop, style, filter, ...) as it is made, though most
  strips use none or one of them: about 7,000 empty caches, 1 MiB, in a session watching bots,
  and fourteen allocations for every line drawn. Here a strip makes each cache when it first uses
  it. Only a `Strip` whose slots are the ones this was written for is changed.
- Every new widget counts itself on the `Widget` class (`Widget._sort_order += 1`). Setting a
  class's attribute makes CPython drop the version tags of that class and of every subclass, about
  120 widget classes, so attribute lookups on all widgets start over, and a forked session writes
  to every one of those classes' pages, which it would otherwise share with the zygote. Here the
  count is kept beside the class (the class's metaclass reads and sets it there).

And one the warm session server asks for (`share_parsed_css`): every app's stylesheet parses its CSS
afresh (Textual keeps what it parsed per stylesheet), a tenth of a lobby session's start. Kept for
all the process's stylesheets instead, the CSS the warm process parsed before it forked is parsed
already in every session forked from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from rich.segment import Segment
from textual._styles_cache import StylesCache
from textual.cache import FIFOCache
from textual.color import Color
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet
from textual.strip import Strip
from textual.style import Style
from textual.widget import Widget


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(self: StylesCache, base_background: Color, background: Color) -> tuple[Style, Style]:
    return _inner_outer(base_background, background)


# The size Textual gives each of a strip's caches.
_STRIP_CACHE_SIZES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}
_STRIP_SLOTS = {*_STRIP_CACHE_SIZES, "_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count"}


def _strip_init(self: Strip, segments: Iterable[Segment], cell_length: int | None = None) -> None:
    self._segments = list(segments)
    self._cell_length = cell_length
    self._render_cache = None
    self._link_ids = None
    self._cell_count = None


def _strip_cache(self: Strip, name: str) -> FIFOCache:
    """Called only for a slot never set: one of the caches, made on its first use."""
    size = _STRIP_CACHE_SIZES.get(name)
    if size is None:
        raise AttributeError(name)
    cache: FIFOCache = FIFOCache(size)
    setattr(self, name, cache)
    return cache


_widget_sort_order = [0]  # Widget._sort_order, kept off the class


def _widget_sort_order_value(cls: type) -> int:
    return _widget_sort_order[0]


def _widget_class_setattr(cls: type, name: str, value: object) -> None:
    if name == "_sort_order" and cls is Widget:
        _widget_sort_order[0] = value  # type: ignore[assignment]
    else:
        type.__setattr__(cls, name, value)


MAX_SHARED_CSS = 256  # CSS sources kept parsed for every stylesheet (an app has a few dozen)
_parsed_css: dict[tuple[object, ...], list[RuleSet]] = {}
_parse_rules_alone = Stylesheet._parse_rules


def _parse_rules_shared(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    # What CSS parses to depends on the stylesheet's variables (the theme's) too: they are in the key.
    key = (tuple(sorted(self._variables.items())), css, read_from, is_default_rules, tie_breaker, scope)
    rules = _parsed_css.get(key)
    if rules is None:
        rules = _parse_rules_alone(self, css, read_from, is_default_rules, tie_breaker, scope)
        if len(_parsed_css) < MAX_SHARED_CSS:
            _parsed_css[key] = rules
    return rules


def share_parsed_css() -> int:
    """From now on, CSS one of this process's stylesheets has parsed is parsed for all of them; the
    number of sources kept so far. Not done by default: apps in one process then share Textual's
    parsed rules (which nothing changes once parsed), and a test's app would get another's."""
    if Stylesheet.__dict__.get("_parse_rules") is _parse_rules_alone and isinstance(
        getattr(Stylesheet(), "_variables", None), dict
    ):
        Stylesheet._parse_rules = _parse_rules_shared  # type: ignore[method-assign]
    return len(_parsed_css)


def apply() -> None:
    if hasattr(StylesCache.get_inner_outer, "cache_info"):  # the lru_cache on the method, keyed by the instance
        StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign]
    if set(Strip.__slots__) == _STRIP_SLOTS and not hasattr(Strip, "__getattr__"):
        Strip.__init__ = _strip_init  # type: ignore[method-assign]
        Strip.__getattr__ = _strip_cache  # type: ignore[attr-defined]
    widget_metaclass = type(Widget)
    counted_on_the_class = Widget.__dict__.get("_sort_order") == 0
    if counted_on_the_class and not {"_sort_order", "__setattr__"} & widget_metaclass.__dict__.keys():
        widget_metaclass._sort_order = property(_widget_sort_order_value)
        widget_metaclass.__setattr__ = _widget_class_setattr


apply()
