"""The footer lets go of the keys it no longer shows (tui.widgets.footer): at a table the keys
change every turn, and Textual's own footer kept every key it had ever composed alive."""

from __future__ import annotations

import asyncio
import gc

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widgets import Button, Static
from textual.widgets._footer import FooterKey

from tui.widgets.footer import Footer


class Turns(App[None]):
    """A screen whose keys change at every turn, as a table's do."""

    BINDINGS = [Binding("d", "draw", "Draw"), Binding("p", "pass_turn", "Pass"), Binding("u", "undo", "Undo")]

    def __init__(self) -> None:
        super().__init__()
        self.turn = 0

    def compose(self) -> ComposeResult:
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "draw":
            return self.turn % 2 == 0
        if action == "pass_turn":
            return self.turn % 2 == 1
        return True


def keys_alive() -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, FooterKey))


def test_keys_a_footer_no_longer_shows_are_let_go():
    async def run() -> None:
        app = Turns()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            shown = len(app.query(FooterKey))
            assert shown >= 3
            for turn in range(1, 40):
                app.turn = turn
                app.refresh_bindings()
                await pilot.pause()
                await pilot.pause()
            assert len(app.query(FooterKey)) == shown
            assert keys_alive() <= 2 * shown  # the ones shown (and at most one composition on the way out)

    asyncio.run(run())


def test_a_turn_that_changes_no_key_shown_composes_no_key_anew_and_one_that_does_shows_it():
    """Textual's footer made all its keys anew whenever the bindings might have changed."""

    async def run() -> None:
        app = Turns()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            keys = list(app.query(FooterKey))
            for _ in range(5):
                app.refresh_bindings()  # a turn that changes nothing the footer shows
                await pilot.pause()
                await pilot.pause()
            assert list(app.query(FooterKey)) == keys  # the very same widgets

            assert "draw" in {key.action for key in keys} and "pass_turn" not in {key.action for key in keys}
            app.turn = 1  # now Pass is shown, and Draw is not
            app.refresh_bindings()
            for _ in range(20):
                await pilot.pause()
                shown = {key.action for key in app.query(FooterKey)}
                if "pass_turn" in shown:
                    break
            assert "pass_turn" in shown and "draw" not in shown

    asyncio.run(run())


class Hand(Static, can_focus=True):
    """A focusable widget with a key of its own, as a table's hand has."""

    BINDINGS = [Binding("enter", "choose", "Play")]

    def action_choose(self) -> None:
        pass


class FirstFrame(App[None]):
    """Notes which keys the footer held when the app first drew its screen."""

    BINDINGS = [Binding("d", "draw", "Draw")]
    first_frame_keys: list[str] | None = None

    def compose(self) -> ComposeResult:
        yield Button("A button, focused at once")
        yield Hand()
        yield Footer()

    def _display(self, screen: Screen[object], renderable: object) -> None:
        if self.first_frame_keys is None:
            self.first_frame_keys = [key.action for key in self.query(FooterKey)]
        super()._display(screen, renderable)  # type: ignore[arg-type]


def test_the_keys_are_in_the_first_frame_drawn():
    """Textual's footer composed its keys two refreshes after the screen: the lobby over SSH drew
    its first frame with an empty footer, and the keys came some 50 ms later (in a browser, 80 to
    130 ms)."""

    async def run() -> None:
        app = FirstFrame()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.first_frame_keys is not None
            assert "draw" in app.first_frame_keys
            assert "choose" not in app.first_frame_keys  # the button has the focus, not the hand
            assert app.first_frame_keys == [key.action for key in app.query(FooterKey)]

    asyncio.run(run())


class HandScreen(Screen[None]):
    """A screen pushed over another, whose hand takes the focus, as a table's does."""

    AUTO_FOCUS = "Hand"

    def compose(self) -> ComposeResult:
        yield Button("A button")
        yield Hand()
        yield Footer()


class PushesAHand(App[None]):
    """Notes the keys of the footer of each screen's first frame."""

    BINDINGS = [Binding("d", "draw", "Draw")]

    def __init__(self) -> None:
        super().__init__()
        self.first_frame_keys: dict[type, list[str]] = {}

    def compose(self) -> ComposeResult:
        yield Footer()

    def _display(self, screen: Screen[object], renderable: object) -> None:
        self.first_frame_keys.setdefault(type(screen), [key.action for key in screen.query(FooterKey)])
        super()._display(screen, renderable)  # type: ignore[arg-type]


def test_the_keys_of_the_widget_a_new_screen_focuses_are_in_its_first_frame():
    """The footer is composed as it mounts, before its screen gives a widget the focus: the keys of
    the focused widget (a table's Play) came a frame later, and the keys beside them moved."""

    async def run() -> None:
        app = PushesAHand()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await app.push_screen(HandScreen())
            for _ in range(10):
                await pilot.pause()
            assert isinstance(app.focused, Hand)
            shown = [key.action for key in app.screen.query(FooterKey)]
            assert shown[0] == "choose"
            assert app.first_frame_keys[HandScreen] == shown

    asyncio.run(run())


class StylesUpdated(FirstFrame):
    """Notes every node whose styles were worked out again after a change of its classes."""

    def __init__(self) -> None:
        super().__init__()
        self.restyled: list[object] = []

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        self.restyled.append(node)
        super().update_styles(node, animate)


def test_a_key_mounts_with_the_footers_compact_and_its_styles_are_not_worked_out_again():
    """Textual makes each key compact, binds it to the footer's `compact`, and the binding sets the
    key's class again as it mounts: every key's styles were worked out a second time."""

    async def run() -> None:
        app = StylesUpdated()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            keys = list(app.query(FooterKey))
            assert {key.action for key in keys} >= {"draw", "command_palette"}
            palette = next(key for key in keys if key.action == "command_palette")  # not bound to the footer
            assert not [node for node in app.restyled if isinstance(node, FooterKey) and node is not palette]
            assert not any(key.has_class("-compact") for key in keys if key is not palette)
            assert palette.has_class("-compact")  # Textual's own default for it

    asyncio.run(run())
