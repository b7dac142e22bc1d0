"""What the screens ask of the application, as a protocol, so screens never import the app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from textual.dom import DOMNode

    from core import Match
    from saves import Autosave, Loaded, SaveStore
    from tui.preferences import Preferences
    from tui.settings import MatchSettings
    from tui.table_model import TableModel
    from workers.bot_process import BotProcess


class Host(Protocol):
    preferences: Preferences
    last_game: str

    def set_preferences(self, **changes: Any) -> None: ...

    def start_match(self, settings: MatchSettings) -> None: ...

    def open_match(self, match: Match) -> None: ...

    def show_game_over(self, table: Match | TableModel) -> None: ...

    def leave_match(self) -> None: ...

    def show_stats(self) -> None: ...

    @property
    def store(self) -> SaveStore: ...

    @property
    def bot_process(self) -> BotProcess: ...

    @property
    def bot_thread(self) -> ThreadPoolExecutor: ...

    def resume(self, saved: Loaded | Autosave) -> bool: ...

    def save_copy(self) -> str | None: ...

    def show_load(self) -> None: ...

    def show_review(
        self, match: Match, match_id: str | None = None, seat: int | None = None, start_round: int | None = None
    ) -> None: ...

    def play_from(self, match: Match) -> None: ...


def host(node: DOMNode) -> Host:
    """The application `node` belongs to, seen through what the screens need of it."""
    return cast(Host, node.app)
