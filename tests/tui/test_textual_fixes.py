"""The workarounds for Textual's bugs (tui.textual_fixes) hold: what they fix stays fixed."""

from __future__ import annotations

import asyncio
import gc

from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.containers import Vertical
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
