"""The key footer: composed anew only when what it shows changes, and without the keys it no
longer shows.

Textual's Footer composes all its keys anew whenever the screen's bindings may have changed (at a
table, every turn), even when the keys it shows are the same: new widgets, their styles worked out
again, their lines drawn again. While bots play at instant speed that was a fifth of the garbage a
session made. This footer recomposes only when the keys it would show (their keys, words, actions,
tooltips, and whether each is enabled) differ from those it shows.

Textual also binds each new key's `compact` to the footer's (`data_bind`) and drops the binding of
a removed key only when `compact` changes, which it never does here, so every key ever shown stayed
alive, with its styles and drawn lines, until the screen closed. This footer lets them go after each
recompose.

Textual's footer also shows no key until two refreshes after its screen's (it waits for the focus to
settle, and the focus waits for a refresh), so every screen was first drawn with an empty footer and
its keys came a frame later. This footer composes the keys it can show as it is mounted, and again
at once when its screen first gives a widget the focus (whose keys it then shows), both before the
screen's first frame; later changes recompose it after a refresh, as Textual's does.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey


class Footer(TextualFooter):
    _composed: Any = None  # what the keys composed last showed
    _focus_settled = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_reactive(TextualFooter._bindings_ready, True)  # ready as it is composed

    def _would_show(self) -> Any:
        """What `compose` would show now, in a form that compares equal when nothing changed."""
        app = self.app
        shown = tuple(
            (
                binding.key,
                app.get_key_display(binding),
                binding.description,
                binding.action,
                (binding.group.description, binding.group.compact) if binding.group else None,
                enabled,
                tooltip,
            )
            for _, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )
        palette = self.screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
        palette_shown = self.show_command_palette and app.ENABLE_COMMAND_PALETTE and palette is not None
        return shown, palette_shown and palette[1:], self.compact

    def compose(self) -> ComposeResult:
        self._composed = self._would_show()
        for widget in super().compose():
            if isinstance(widget, FooterKey) and "compact" in (widget._reactive_connect or {}):
                # Made as compact as the footer, which it is bound to, with the class that goes with
                # it: otherwise the binding changes the key's class as it mounts, and its styles are
                # worked out twice. (The palette's key is not bound, and keeps its own.)
                widget.set_reactive(FooterKey.compact, self.compact)
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    def on_mount(self) -> None:
        # Textual's footer hears of changed bindings only from its own on_mount on; a change made
        # between its compose and then (the title's offer to resume, read in a thread, came there
        # when the saves were read fast) reached no one and the key never showed. Once subscribed,
        # look again: recompose does nothing when the keys are the same.
        self.call_next(self.recompose)

    def bindings_changed(self, screen: Screen[object]) -> None:
        if not self._focus_settled:  # the screen's first focus, before its first frame: not after a refresh
            self._focus_settled = True
            if self.is_attached and screen is self.screen:
                self.call_next(self.recompose)
            return
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        if not self.is_attached or self._pruning:  # asked for before its screen went: nothing to show
            return
        shown = self._would_show()
        if shown == self._composed:
            return
        self._composed = shown
        await super().recompose()
        bound = getattr(self, "__watchers", {}).get("compact")  # Textual's (node, callback) pairs for the reactive
        if bound:
            bound[:] = [(node, callback) for node, callback in bound if node.is_attached]
