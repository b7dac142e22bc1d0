"""The lobby application: what an SSH connection runs (`dominoes lobby --name NAME`).

It is the whole interface with the lobby in place of the title screen: tables to join or open,
a match alone against bots (saved, like every match, in the player's own folder: resumed or loaded
from the lobby), or bots watched playing on their own. Joining a table ends this app with a
`JoinRequest`; `dominoes lobby` then runs `dominoes join` in the same terminal and comes back to
the lobby afterwards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from core import GAME_NAMES
from tui.app import DominoesApp
from tui.preferences import Preferences, load_preferences, save_preferences
from tui.screens.lobby import LobbyScreen
from tui.settings import MatchSettings, build_settings
from tui.styles import STYLES

if TYPE_CHECKING:
    from textual.timer import Timer

    from net.limits import ServerLimits
    from tui.screens.table import TableScreen

AUTOPILOT_EVERY = 0.25  # seconds between looks for a round-over or game-over screen to go past
WATCH_LEVELS = ("easy", "easy", "easy", "random")


@dataclass(frozen=True)
class JoinRequest:
    """The lobby's answer: join the table at `address` (at `seat`, or the first free one), or
    with `watch`, watch it from no seat."""

    address: str
    seat: int | None = None
    watch: bool = False


def watch_settings(rng: random.Random) -> MatchSettings:
    """A match of bots only, in a game picked at random, for watching."""
    game = rng.choice(GAME_NAMES)
    from core import get_game

    players = get_game(game).min_players if game == "moon" else 4
    kinds = [f"bot:{WATCH_LEVELS[seat % len(WATCH_LEVELS)]}" for seat in range(players)]
    return build_settings(game, players, kinds, seed=rng.randrange(1, 1_000_000))


class LobbyApp(DominoesApp):
    CSS_PATH: ClassVar = [*DominoesApp.CSS_PATH, STYLES / "lobby.tcss"]
    TITLE = "Dominoes lobby"

    def __init__(
        self,
        player_name: str,
        *,
        watch: bool = False,
        speed: str | None = None,
        notice: str | None = None,
        preferences: Preferences | None = None,
        limits: ServerLimits | None = None,
    ) -> None:
        prefs = preferences if preferences is not None else load_preferences()
        self._kept_speed = prefs.bot_speed  # a --speed for this session (`watch SPEED`) is not kept
        prefs = replace(
            prefs,
            names=(player_name, *prefs.names[1:]),
            seats=("human", *prefs.seats[1:]),
            bot_speed=speed or prefs.bot_speed,
        )
        super().__init__(preferences=prefs)
        self.player_name = player_name
        self.limits = limits  # the server's caps on tables, and its tables' takeover delay
        self.watching = watch
        self.notice = notice
        self.rng = random.Random()
        self._seen: object = None  # the screen the autopilot saw last time
        self.autopilot: Timer | None = None  # goes past round-over screens while bots are watched

    @property
    def served_player(self) -> str | None:
        return self.player_name

    def get_default_screen(self) -> LobbyScreen:  # type: ignore[override]
        return LobbyScreen(self.player_name, self.notice)

    def set_preferences(self, **changes: Any) -> None:
        """Kept in the player's own folder (a served session's data directory is theirs alone)."""
        self.preferences = replace(self.preferences, **changes)
        self._kept_speed = changes.get("bot_speed", self._kept_speed)
        save_preferences(replace(self.preferences, bot_speed=self._kept_speed))

    def on_mount(self) -> None:
        if self.watching:
            self.watch()

    # -- watching bots ---------------------------------------------------------------------------
    def watch(self) -> None:
        self.watching = True
        if self.autopilot is None:  # only while bots are watched: a lobby waiting for its player wakes for nothing
            self.autopilot = self.set_interval(AUTOPILOT_EVERY, self._autopilot)
        self.start_match(watch_settings(self.rng))

    def _autopilot(self) -> None:
        """While watching, nobody presses Enter: rounds go on and a finished match is replayed."""
        if not self.watching:
            return
        from tui.screens.game_over import GameOverScreen
        from tui.screens.round_over import RoundOverScreen

        screen = self.screen
        if screen is not self._seen or not screen.is_mounted:
            self._seen = screen  # shown for one look at least, and only once it is fully there
            return
        if isinstance(screen, RoundOverScreen):
            screen.action_next()
        elif isinstance(screen, GameOverScreen):
            self.pop_screen()
            self.watch()

    def on_table_screen_match_changed(self, message: TableScreen.MatchChanged) -> None:
        if self.watching:
            message.prevent_default()  # a watched match is not saved
            self.match = message.match

    def leave_match(self) -> None:
        self.watching = False
        if self.autopilot is not None:
            self.autopilot.stop()
            self.autopilot = None
        super().leave_match()

    # -- joining ---------------------------------------------------------------------------------
    def join(self, address: str, seat: int | None = None, watch: bool = False) -> None:
        self.exit(JoinRequest(address, seat, watch))
