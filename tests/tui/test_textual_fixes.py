"""The workarounds for Textual's bugs and costs (tui.textual_fixes) hold: what they fix stays fixed."""

from __future__ import annotations

import asyncio
import gc

import pytest
from rich.segment import Segment
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Label

import tui.textual_fixes  # noqa: F401 - the app imports it; so does this test, whatever ran before


class Rebuilt(App[None]):
    """A list of cards drawn and replaced again and again, as a table's keys and dialogs are."""

    def compose(self) -> ComposeResult:
        yield Vertical(id="cards")

    async def rebuild(self, round_number: int) -> None:
        cards = self.query_one("#cards")
        await cards.remove_children()
        await cards.mount_all(Label(f"card {round_number}.{index}") for index in range(20))


def alive(kind: type) -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, kind))


def test_a_removed_widget_lets_go_of_the_lines_it_drew():
    """Textual's StylesCache.get_inner_outer kept up to 1,024 removed widgets' caches (with their
    drawn lines) alive through an lru_cache keyed by the instance (Textualize/textual#6665)."""

    async def run() -> None:
        app = Rebuilt()
        async with app.run_test(size=(80, 24)) as pilot:
            for round_number in range(15):
                await app.rebuild(round_number)
                await pilot.pause()
                await pilot.pause()
            widgets = alive(Widget)
            caches = alive(StylesCache)
            assert widgets >= 20
            assert caches <= widgets + 5, f"{caches} style caches for {widgets} widgets: the removed ones' are kept"

    asyncio.run(run())


def test_a_strip_makes_each_cache_when_it_first_uses_it_and_then_uses_it():
    """Textual's Strip made seven caches as it was made; most strips use none."""
    strip = Strip([Segment("domino"), Segment(" tiles")])
    crop_cache = Strip.__dict__["_crop_cache"]  # the slot itself, read without making the cache
    with pytest.raises(AttributeError):
        crop_cache.__get__(strip, Strip)
    cropped = strip.crop(0, 6)
    assert cropped.text == "domino"
    assert strip.crop(0, 6) is cropped  # the second crop comes from the cache now made
    assert len(crop_cache.__get__(strip, Strip)) == 1
    with pytest.raises(AttributeError):
        Strip.__dict__["_style_cache"].__get__(strip, Strip)
    with pytest.raises(AttributeError):
        strip.not_a_cache  # noqa: B018 - a name that is no cache is still missing


def test_a_new_widget_counts_itself_without_changing_the_widget_class():
    """Textual counted widgets on the Widget class, and setting a class's attribute makes CPython
    drop the version tags of the class and every subclass of it (see tui.textual_fixes)."""
    first, second = Label("one"), Label("two")
    assert second.sort_order == first.sort_order + 1
    assert Widget._sort_order == second.sort_order
    assert Widget.__dict__["_sort_order"] == 0  # the class itself was not written to
    Label.extra_attribute = 1  # any other class attribute is set as before
    assert Label.__dict__["extra_attribute"] == 1
    del Label.extra_attribute
