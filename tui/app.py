"""The Textual application: screens, preferences, themes, and the flow between matches."""

from __future__ import annotations

import gc
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding

from core import GAME_NAMES
from tui import textual_fixes  # noqa: F401 - applied on import, before any widget draws
from tui.commands import ScreenActions
from tui.preferences import Preferences, load_preferences, save_preferences
from tui.screens.title import TitleScreen
from tui.styles import APP_STYLES

if TYPE_CHECKING:
    from collections.abc import Sequence
    from concurrent.futures import ThreadPoolExecutor

    from textual.await_complete import AwaitComplete
    from textual.screen import Screen
    from textual.timer import Timer

    from core import Match
    from net.client import TableClient
    from saves import Autosave, Loaded, SaveStore
    from tui.screens.table import TableScreen
    from tui.settings import MatchSettings
    from tui.table_model import TableModel
    from workers.bot_process import BotProcess

BACKGROUND_NICENESS = 15  # a finished match's review, for the record: below everything the player does
SCREEN_GONE_SECONDS = 0.3  # after a screen leaves the stack: Textual has mostly taken it down by then
THEMES = ("textual-dark", "textual-light", "ansi-dark", "ansi-light")  # the ANSI ones suit 16 colours


class DominoesApp(App[None]):
    """The application. Screens other than the title are imported when first shown, which keeps
    the start-up close to a bare Textual app's (bench/startup.py)."""

    # Absolute, so subclasses find it. The table's styles come with the screens that use them: the
    # title screen's first frame does not wait to parse them.
    CSS_PATH: ClassVar = [APP_STYLES]
    TITLE = "Dominoes"
    COMMANDS = App.COMMANDS | {ScreenActions}
    BINDINGS = [
        Binding("t", "next_theme", "Theme", show=False, id="app.theme"),
        Binding("ctrl+q", "quit", "Quit", show=False, id="app.quit", priority=True),
    ]

    def __init__(
        self,
        start: MatchSettings | None = None,
        preferences: Preferences | None = None,
        match: Match | None = None,
        saved: Loaded | Autosave | None = None,
        remote: TableClient | None = None,
        notice: str | None = None,
    ) -> None:
        """`start`: begin a new match at once; `match`: open this match where it stands (saved as a
        new match); `saved`: go on with a loaded save (`dominoes --resume`); `remote`: play at the
        table this client has joined (`dominoes join`), and end when leaving it. `notice`: a warning
        to show once the interface is up."""
        super().__init__()
        self.preferences = preferences if preferences is not None else load_preferences()
        self.start_settings = start
        self.start_match_object = match
        self.start_saved = saved
        self.start_remote = remote
        self.start_notice = notice
        self.joined = remote is not None  # a `dominoes join` session: leaving its table ends the app
        self.settings: MatchSettings | None = None
        self.match: Match | None = None
        self.last_game = GAME_NAMES[0]
        self._store: SaveStore | None = None
        self.autosave: Autosave | None = None
        self._save_failed = False  # say once that saving fails, not after every move
        self._bot_process: BotProcess | None = None
        self._bot_thread: ThreadPoolExecutor | None = None
        self._background_review: Any = None  # the review of a finished match being weighed, for the record
        self._collection: Timer | None = None  # the collection due once a screen that left is taken down

    def get_default_screen(self) -> TitleScreen:
        return TitleScreen()

    def on_mount(self) -> None:
        theme = self.preferences.theme
        self.theme = theme if theme in self.available_themes else "textual-dark"
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self.start_settings is not None:
            self.start_match(self.start_settings)
        elif self.start_match_object is not None:
            self.open_match(self.start_match_object)
        elif self.start_saved is not None:
            self.resume(self.start_saved)
        elif self.start_remote is not None:
            self.open_remote(self.start_remote)
        if self.start_notice:
            self.notify(self.start_notice, severity="warning", timeout=12, markup=False)
        self.call_after_refresh(self._start_updating_record)  # after the first frame: a start stays quick

    def _start_updating_record(self) -> None:
        self.run_worker(self._update_record, thread=True, group="record", exit_on_error=False)

    # -- the record ----------------------------------------------------------------------------------
    @property
    def served_player(self) -> str | None:
        """The player a served session (the lobby) is for; None on one's own machine."""
        return None

    def _update_record(self) -> None:
        """Bring the record up to date with the saves, at start (in a thread: it reads every save
        that changed since the last look)."""
        from tui.record_tasks import bring_up_to_date

        for notice in bring_up_to_date(self.served_player):
            self.call_from_thread(self.notify, notice, severity="warning", timeout=10, markup=False)

    def show_stats(self) -> None:
        from tui.record_tasks import own_statistics
        from tui.screens.stats import StatsScreen

        served, preferred = self.served_player, self.preferences.names[0]
        self.push_screen(StatsScreen(lambda: own_statistics(served, preferred)))

    def on_game_over_screen_copy_kept(self, message: Any) -> None:
        """A joined table's match is over and kept in this player's saves: into their record, with
        the review of their seat alone (the other seats are other people's)."""

        def record_copy() -> None:
            from saves import SaveError

            try:
                match = self.store.load(message.match_id).record.match
            except SaveError:
                return
            self._record_match(match, message.match_id, message.screen, (message.seat,))

        self.run_worker(record_copy, thread=True, group="record-match", exit_on_error=False)

    def _record_match(self, match: Match, match_id: str, screen: Any, seats: Sequence[int] | None = None) -> None:
        """A match just ended: into the record (the game-over screen shows the rating change), then,
        unless the player turned it off (or it was a lesson), its review for the people at it
        (`seats`, by default every human's) weighed at a low priority and its accuracy into the
        record too."""
        from records.accuracy import STANDARD
        from records.eligibility import deals_from_chance
        from tui.record_tasks import match_results
        from tui.review_session import ReviewSession
        from workers.review_pool import ReviewError

        seats = tuple(match.humans if seats is None else seats)
        names = [match.seats[seat].name for seat in seats]
        # A lesson's moves are the lesson's: its accuracy would say nothing of the player's.
        review = self.preferences.review_after_match and bool(names) and deals_from_chance(match)
        results, notices = match_results(match_id, names, self.served_player)
        for notice in notices:
            self.call_from_thread(self.notify, notice, severity="warning", timeout=10, markup=False)
        self.call_from_thread(screen.show_record, results, review)
        if not review:
            return
        session = ReviewSession(
            match, match_id, self.store.review_path(match_id), STANDARD, seats, 1, BACKGROUND_NICENESS
        )
        self._background_review = session
        try:
            session.run()
        except ReviewError:
            return
        finally:
            self._background_review = None
        results, _ = match_results(match_id, names, self.served_player)
        self.call_from_thread(screen.show_record, results, False)

    # -- served sessions -----------------------------------------------------------------------------
    @property
    def served(self) -> bool:
        """A session served to a player who came in from elsewhere (over SSH): files this process
        writes land in the server's account, where the player cannot reach them."""
        from net.paths import is_served

        return is_served()

    def get_system_commands(self, screen: Any) -> Any:
        """The palette's commands; in a served session without Screenshot (it would write into
        the server account's Downloads folder)."""
        for command in super().get_system_commands(screen):
            if not (self.served and command.title == "Screenshot"):
                yield command

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        if self.served:
            self.notify("Screenshots are off here: the file would be saved on the server, out of your reach.")
            return None
        return super().deliver_screenshot(filename, path, time_format)

    # -- memory ------------------------------------------------------------------------------------
    def pop_screen(self) -> AwaitComplete:
        popped = super().pop_screen()
        self._collect_when_taken_down()
        return popped

    def switch_screen(self, screen: Screen | str) -> AwaitComplete:
        switched = super().switch_screen(screen)
        self._collect_when_taken_down()
        return switched

    def _collect_when_taken_down(self) -> None:
        """A screen taken down is garbage that only the collector's full collections free (its
        widgets, their tasks and timers refer to each other), and those come seldom: a session
        watching bots held up to five dead screens at a time, with every line they drew, and its
        memory stayed at that high-water mark. So collect a moment after a screen leaves (10 to 20
        ms; a session forked from the warm process collects only its own objects); one not yet
        down by then goes with the next collection."""
        if self._collection is None:  # one due already collects this one too, if not it the next
            self._collection = self.set_timer(SCREEN_GONE_SECONDS, self._collect_garbage, name="collect dead screens")

    def _collect_garbage(self) -> None:
        self._collection = None
        gc.collect()

    def on_unmount(self) -> None:
        if self._background_review is not None:
            self._background_review.close()
        self._close_autosave()
        if self._bot_process is not None:
            self._bot_process.close()
        if self._bot_thread is not None:
            self._bot_thread.shutdown(wait=False, cancel_futures=True)

    # -- preferences -----------------------------------------------------------------------------
    def set_preferences(self, **changes: Any) -> None:
        self.preferences = replace(self.preferences, **changes)
        save_preferences(self.preferences)

    def _theme_changed(self, theme: Any) -> None:
        if theme.name != self.preferences.theme:
            self.set_preferences(theme=theme.name)

    def action_next_theme(self) -> None:
        current = self.theme if self.theme in THEMES else THEMES[-1]
        self.theme = THEMES[(THEMES.index(current) + 1) % len(THEMES)]
        self.tell(f"Theme: {self.theme}.")

    def tell(self, words: str) -> None:
        """A passing word: in the table's notice line, which never covers the hand, or a toast."""
        set_notice = getattr(self.screen, "set_notice", None)
        if callable(set_notice):
            set_notice(words)
        else:
            self.notify(words, timeout=2)

    # -- matches ---------------------------------------------------------------------------------
    def start_match(self, settings: MatchSettings) -> None:
        """Open the table for a new match, above the title screen."""
        self._remember_seats(settings)
        self.open_match(settings.new_match(), settings)

    def open_match(self, match: Match, settings: MatchSettings | None = None, autosave: Autosave | None = None) -> None:
        """Open the table for `match` where it stands: a new match gets a new save file, a resumed
        one (`autosave` given) goes on in its own."""
        from saves import Autosave
        from tui.screens.lesson_table import table_screen
        from tui.settings import MatchSettings

        self.joined = False  # a match of its own now, after any joined one
        if self.autosave is not autosave:
            self._close_autosave()
        # A new match takes its lock with its first save; one opened from a save holds it already.
        self.autosave = autosave if autosave is not None else Autosave(self.store, match, exclusive=True)
        self._save_failed = False
        self.settings = settings or MatchSettings(match.game_name, match.seats, dict(match.options), match.seed)
        self.last_game = match.game_name
        self.match = match
        while len(self.screen_stack) > 1:  # back to the title screen, at the bottom
            self.pop_screen()
        self.push_screen(table_screen(match))  # a lesson's match reopens as a lesson

    def open_remote(self, client: TableClient) -> None:
        """Open the table of a match held by a table server, at the seat `client` has taken (or to
        watch, from no seat)."""
        from tui.screens.remote_table import RemoteTableScreen
        from tui.screens.watch_table import WatchTableScreen

        self._close_autosave()  # the server saves its match
        self.match = None
        self.last_game = client.game
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(WatchTableScreen(client) if client.watching else RemoteTableScreen(client))

    def _remember_seats(self, settings: MatchSettings) -> None:
        names = list(self.preferences.names)
        kinds = list(self.preferences.seats)
        for index, seat in enumerate(settings.seats):
            names[index] = seat.name
            kinds[index] = "human" if not seat.is_bot else f"bot:{seat.level}"
        self.set_preferences(names=tuple(names), seats=tuple(kinds))

    # -- saves -----------------------------------------------------------------------------------
    @property
    def store(self) -> SaveStore:
        """The save directory ($DOMINOES_HOME/saves, or the user data directory's); opened on first use."""
        if self._store is None:
            from saves import SaveStore

            self._store = SaveStore()
        return self._store

    def on_table_screen_match_changed(self, message: TableScreen.MatchChanged) -> None:
        """After every event and every undo or redo: save, so quitting at any moment loses nothing."""
        from saves import MatchChangedElsewhere, SaveError
        from saves.errors import as_sentence

        if self.autosave is None or message.match is not self.autosave.match:
            return  # a late message from a table already left: never write one match into another's file
        self.match = message.match
        try:
            self.autosave(message.match)
        except MatchChangedElsewhere as error:  # saved, under a new id: say where
            self._save_failed = False
            self.notify(as_sentence(error.reason), severity="warning", timeout=15, markup=False)
        except SaveError as error:
            if not self._save_failed:
                self._save_failed = True
                self.notify(f"The match is not being saved: {error}", severity="error", timeout=8, markup=False)
        else:
            self._save_failed = False

    def resume(self, saved: Loaded | Autosave) -> bool:
        """Go on with a saved match, saving to its own file; say so if its backup had to be used.
        A match listed earlier (`Loaded`) is opened now: its lock taken and the file read afresh.
        False, with one line saying why, if another process has it open or it cannot be loaded."""
        from saves import Autosave, SaveError
        from saves.errors import as_sentence

        if isinstance(saved, Autosave):
            autosave = saved
        else:
            try:
                autosave = Autosave.open(self.store, saved.record.match_id)
            except SaveError as error:
                self.notify(as_sentence(error.reason), severity="error", timeout=10, markup=False)
                return False
        self.open_match(autosave.match, autosave=autosave)
        if autosave.notice:
            self.notify(as_sentence(autosave.notice), severity="warning", timeout=10, markup=False)
        return True

    def save_copy(self) -> str | None:
        """Save the match in play as a new match (a new id); play goes on in the original. The new
        id, or None (with a notice) if it could not be written."""
        from saves import Autosave, SaveError

        if self.match is None:
            return None
        created = self.autosave.created if self.autosave is not None else None
        copy = Autosave(self.store, self.match, created=created)
        try:
            copy()
        except SaveError as error:
            self.notify(f"The copy could not be saved: {error}", severity="error", timeout=8, markup=False)
            return None
        return copy.match_id

    def show_review(
        self, match: Match, match_id: str | None = None, seat: int | None = None, start_round: int | None = None
    ) -> None:
        """The review of `match` (saved as `match_id`; by default the match in play's own save), its
        sidecar kept beside the save."""
        from saves import SaveError
        from tui.screens.review import ReviewScreen

        if match_id is None and self.autosave is not None and self.autosave.match is match:
            match_id = self.autosave.match_id
            if not self.autosave.path.exists():
                try:
                    self.autosave(match)  # a match opened where it stood is saved with its first move: now
                except SaveError:
                    match_id = None  # no save to keep the review beside
        path = self.store.review_path(match_id) if match_id is not None else None
        background = self._background_review
        if background is not None and background.match_id == match_id:
            background.close()  # the review screen weighs it now, and keeps what it weighs beside the save
        self.push_screen(ReviewScreen(match, match_id, path, seat, start_round))

    def play_from(self, match: Match) -> None:
        """Open `match`, branched from a review, as a new match with its own save, written at once."""
        from saves import SaveError

        self.open_match(match)
        try:
            self.autosave(match)  # type: ignore[misc]
        except SaveError as error:
            self.notify(f"The match is not being saved: {error}", severity="error", timeout=8, markup=False)

    def show_load(self) -> None:
        from tui.screens.load import LoadScreen

        self.push_screen(LoadScreen(self.store), self._after_load)

    def _after_load(self, opened: Autosave | None) -> None:
        if opened is not None:
            self.resume(opened)

    def _close_autosave(self) -> None:
        """Let the match in play go (its lock released), so another process may open it."""
        if self.autosave is not None:
            self.autosave.close()
            self.autosave = None

    # -- bots --------------------------------------------------------------------------------------
    @property
    def bot_process(self) -> BotProcess:
        """The process searching bots think in; started with the first decision, closed on exit."""
        if self._bot_process is None:
            from workers.bot_process import BotProcess

            self._bot_process = BotProcess()
        return self._bot_process

    @property
    def bot_thread(self) -> ThreadPoolExecutor:
        """The one thread bots decide in (one decides at a time), so that the interface goes on
        answering keys meanwhile; started with the first decision, ended on exit. One thread rather
        than a pool: a served session keeps no idle threads, nor their stacks and heaps."""
        if self._bot_thread is None:
            from concurrent.futures import ThreadPoolExecutor

            self._bot_thread = ThreadPoolExecutor(1, thread_name_prefix="bots")
        return self._bot_thread

    def show_game_over(self, table: Match | TableModel) -> None:
        from tui.screens.game_over import GameOverScreen

        self.pop_screen()  # the table
        screen = GameOverScreen(table)
        self.push_screen(screen, self._after_game_over)
        autosave = self.autosave
        if autosave is not None and autosave.match is table and autosave.path.exists():
            self.run_worker(
                lambda: self._record_match(table, autosave.match_id, screen),  # type: ignore[arg-type]
                thread=True,
                group="record-match",
                exit_on_error=False,
            )

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "rematch" and self.settings is not None and self.match is not None:
            seed = self.match.seed
            self.start_match(self.settings.rematch(seed + 1 if seed is not None else None))
        elif choice == "new":
            from tui.screens.new_match import NewMatchScreen

            self.push_screen(NewMatchScreen(self.last_game))
        elif self.joined:
            self.exit()  # `dominoes join`: the match it joined is over

    def leave_match(self) -> None:
        """Back to the title screen; the match is saved, to resume later. `dominoes join` ends here."""
        if self.joined:
            self.exit()
            return
        self.match = None
        self._close_autosave()
        while len(self.screen_stack) > 1:  # back to the title screen, at the bottom
            self.pop_screen()
