"""Watching a table from no seat: the board, hand sizes, scores, the log and each round's result,
as every seat sees them, and never a hand (the server sends a watcher nothing more: net/server.py).

A watcher cannot act: no keys to play, draw, pass, hint or undo, no talk, no review; every such
key says why in the notice. Rounds go by on their own, as the table deals them: a round's result
shows until the next round is dealt (or Enter).
"""

from __future__ import annotations

from net.messages import Snapshot
from tui.screens.remote_table import RemoteTableScreen
from tui.screens.round_over import RoundOverScreen
from tui.widgets.hand_view import HandView

WATCHING = "You are watching: a watcher cannot play, hint, undo or talk. q: leave"
ACTING = frozenset({"draw", "pass_turn", "decide", "next_end", "hint", "undo", "redo", "talk"})


class WatchTableScreen(RemoteTableScreen):
    AUTO_FOCUS = "#move-log"  # no hand to hold the keys: the arrows look back through the log

    def viewer_plays(self) -> bool:
        return False  # the seat the view is drawn from is nobody's here

    def hand_hidden(self) -> bool:
        return True

    def hidden_hand_words(self) -> str:
        return "You are watching: every hand stays hidden until the rules show it to all."

    def on_mount(self) -> None:
        self.sub_title = f"{self.remote.game.title} · watching"
        self.query_one(HandView).can_focus = False

    def take(self, event: object) -> None:
        """A watcher that has fallen behind (its session yields the processor to the players')
        skips to the table as it is now: a snapshot in the middle of a round with more news behind
        it is taken in, not drawn. A round's end is always shown."""
        ends = isinstance(event, Snapshot) and (event.view.over or event.view.chance)
        if isinstance(event, Snapshot) and not ends and self.remote.client.waiting_events():
            if event is not self.remote.snapshot:
                self.remote.update(event)
            return
        super().take(event)  # type: ignore[arg-type]

    def advance(self) -> None:
        view = self.remote.snapshot.view
        shown = self.app.screen
        if self.waiting and isinstance(shown, RoundOverScreen) and not (view.over or view.chance):
            shown.dismiss("next")  # the table dealt the next round: watching goes on with it
            return
        super().advance()

    def status_notes(self, names: tuple[str, ...]) -> list[str]:
        return ["you are watching", *super().status_notes(names)]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ACTING:
            return False
        return super().check_action(action, parameters)

    def action_why_not(self, action: str) -> None:
        self.set_notice(WATCHING)

    def refused(self, message: str) -> None:
        self.set_notice(message, "illegal")  # a watcher's refusal (never sent by this screen): no bell
