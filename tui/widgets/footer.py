"""The key footer, without the keys it no longer shows.

Textual's Footer composes its keys anew whenever the screen's bindings change (at a table, every
turn) and binds each new key's `compact` to its own (`data_bind`). Textual drops the binding of a
removed key only when `compact` changes, which it never does here, so every key ever shown stayed
alive, with its styles and drawn lines, until the screen closed: a few megabytes a minute of bots
watched at instant speed, more over a long match. This footer lets them go after each recompose.
"""

from __future__ import annotations

from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    async def recompose(self) -> None:
        await super().recompose()
        bound = getattr(self, "__watchers", {}).get("compact")  # Textual's (node, callback) pairs for the reactive
        if bound:
            bound[:] = [(node, callback) for node, callback in bound if node.is_attached]
