"""The new-match screen: game, players, each seat (human or a bot level), names, options, seed."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from core import GAME_NAMES, get_game
from core.bots import BOT_LEVELS
from core.options import OptionSpec
from core.seats import MAX_NAME
from tui.host import host
from tui.preferences import MAX_SEATS
from tui.settings import MatchSettings, build_settings
from tui.styles import STYLES
from tui.widgets.footer import Footer


class OnOff(Checkbox):
    """A rule switch that reads "on" or "off", with a mark only when on: legible without colour
    (a plain Checkbox shows the same "X" either way, told apart by colour alone)."""

    def __init__(self, value: bool, *, id: str | None = None) -> None:
        super().__init__("on" if value else "off", value=value, compact=True, id=id)
        self.BUTTON_INNER = "X" if value else " "

    def watch_value(self) -> None:
        super().watch_value()
        self.BUTTON_INNER = "X" if self.value else " "
        self.label = "on" if self.value else "off"


def seat_choices() -> list[tuple[str, str]]:
    """Human, then one entry per bot level: a new level appears here without other changes."""
    return [("Human", "human")] + [(f"Bot: {level}", f"bot:{level}") for level in BOT_LEVELS]


class NewMatchScreen(Screen[None]):
    CSS_PATH: ClassVar = STYLES / "new_match.tcss"
    BINDINGS = [
        Binding("ctrl+s", "start", "Start", id="new.start"),
        Binding("escape", "app.pop_screen", "Back", id="new.back"),
    ]

    def __init__(self, game_name: str | None = None) -> None:
        super().__init__()
        self.game_name = game_name or GAME_NAMES[0]
        self.sub_title = "New match"
        self.options_for: tuple[str, int] | None = None  # the game and player count the option rows show

    # -- building the form ---------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        prefs = host(self).preferences
        game = get_game(self.game_name)
        with VerticalScroll(id="new-form"):
            with Horizontal(classes="form-row"):
                yield Label("Game", classes="form-label")
                yield Select(
                    [(get_game(name).title, name) for name in GAME_NAMES],
                    value=game.name,
                    allow_blank=False,
                    compact=True,
                    id="game",
                )
            with Horizontal(classes="form-row"):
                yield Label("Players", classes="form-label")
                yield Select(
                    self._player_choices(),
                    value=min(4, game.max_players),
                    allow_blank=False,
                    compact=True,
                    id="players",
                )
            choices = self.seat_choices()
            allowed = {value for _, value in choices}
            for seat in range(MAX_SEATS):
                kind = prefs.seats[seat] if prefs.seats[seat] in allowed else ("human" if seat == 0 else "bot:easy")
                with Horizontal(classes="form-row seat-row", id=f"seat-row-{seat}"):
                    yield Label(f"Seat {seat + 1}", classes="form-label")
                    yield Input(
                        prefs.names[seat], max_length=MAX_NAME, compact=True, id=f"name-{seat}", classes="seat-name"
                    )
                    yield Select(
                        choices, value=kind, allow_blank=False, compact=True, id=f"kind-{seat}", classes="seat-kind"
                    )
            yield Static("Rule options", classes="form-heading")
            yield Vertical(id="options")
            with Horizontal(classes="form-row", id="seed-row"):
                yield Label("Seed", classes="form-label")
                yield Input(placeholder="random", type="integer", compact=True, id="seed")
            yield Static("", id="new-error")
            with Horizontal(id="new-buttons"):
                yield Button("Start", variant="primary", compact=True, id="start")
                yield Button("Back", compact=True, id="back")
        yield Footer()

    def seat_choices(self) -> list[tuple[str, str]]:
        return seat_choices()

    def seed_allowed(self) -> bool:
        """Whether the form offers a seed (for practice: the same deals again)."""
        return True

    def _player_choices(self) -> list[tuple[str, int]]:
        game = get_game(self.game_name)
        return [(str(n), n) for n in range(game.min_players, game.max_players + 1)]

    async def on_mount(self) -> None:
        self._show_seats()
        await self._build_options()
        self.query_one("#game").focus()

    @property
    def players(self) -> int:
        return int(self.query_one("#players", Select).value)  # type: ignore[arg-type]

    def _show_seats(self) -> None:
        for seat in range(MAX_SEATS):
            self.query_one(f"#seat-row-{seat}").display = seat < self.players

    async def _build_options(self) -> None:
        """Awaited, so a second rebuild (the player count follows the game) never meets the rows
        of the first half mounted."""
        container = self.query_one("#options", Vertical)
        kept = self._current_option_values()
        await container.remove_children()
        rows = []
        for spec in get_game(self.game_name).option_specs:
            # What the player typed stays, unless the option's default follows the player count.
            value = kept.get(spec.name) if not callable(spec.default) else None
            rows.append(self._option_row(spec, value))
        await container.mount_all(rows)
        self.options_for = (self.game_name, self.players)

    def _current_option_values(self) -> dict[str, object]:
        values: dict[str, object] = {}
        for spec in get_game(self.game_name).option_specs:
            found = self.query(f"#option-{spec.name}")
            if found:
                values[spec.name] = found.first().value  # type: ignore[attr-defined]
        return values

    def _option_row(self, spec: OptionSpec, value: object = None) -> Vertical:
        players = self.players
        default = spec.default_for(players) if value is None else value
        control: Input | Checkbox | Select
        if spec.kind == "bool":
            control = OnOff(bool(default), id=f"option-{spec.name}")
        elif spec.kind == "choice":
            control = Select(
                [(c, c) for c in spec.choices], value=default, allow_blank=False, compact=True, id=f"option-{spec.name}"
            )
        else:
            control = Input(
                str(default), type="integer", compact=True, id=f"option-{spec.name}", placeholder=spec.allowed(players)
            )
        label = Label(spec.name, classes="form-label")
        explanation = Static(f"[dim]{spec.explanation} ({spec.allowed(players)})[/dim]", classes="option-explanation")
        return Vertical(Horizontal(label, control, classes="form-row"), explanation, classes="option-row")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Mark the focused field's row (its label shows it): Textual's :focus-within is not
        redrawn when focus leaves a row."""
        for row in self.query(".form-row.-focused"):
            row.remove_class("-focused")
        for row in event.widget.ancestors:
            if row.has_class("form-row"):
                row.add_class("-focused")
                break

    @on(Select.Changed, "#game")
    async def _game_changed(self, event: Select.Changed) -> None:
        if event.value == self.game_name or event.value is Select.BLANK:
            return
        self.game_name = str(event.value)
        game = get_game(self.game_name)
        players = self.query_one("#players", Select)
        players.set_options(self._player_choices())
        players.value = min(max(4, game.min_players), game.max_players)
        self._show_seats()
        await self._build_options()

    @on(Select.Changed, "#players")
    async def _players_changed(self) -> None:
        self._show_seats()
        # Some defaults and limits depend on the player count. The count set as the form is built
        # says so too: rebuilding then would drop what the player has begun typing.
        if self.options_for != (self.game_name, self.players):
            await self._build_options()

    # -- starting ------------------------------------------------------------------------------
    def read_settings(self) -> MatchSettings:
        players = self.players
        kinds = [str(self.query_one(f"#kind-{seat}", Select).value) for seat in range(players)]
        names = [self.query_one(f"#name-{seat}", Input).value for seat in range(players)]
        game = get_game(self.game_name)
        options: dict[str, object] = {}
        for spec in game.option_specs:
            control = self.query_one(f"#option-{spec.name}")
            if isinstance(control, Checkbox):
                options[spec.name] = control.value
            elif isinstance(control, Select):
                options[spec.name] = spec.parse(str(control.value), players)
            else:
                options[spec.name] = spec.parse(control.value, players)  # type: ignore[attr-defined]
        seed_text = self.query_one("#seed", Input).value.strip() if self.seed_allowed() else ""
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise ValueError(f"the seed is a whole number, not {seed_text!r}") from None
        return build_settings(self.game_name, players, kinds, names, options, seed)

    def action_start(self) -> None:
        try:
            settings = self.read_settings()
        except ValueError as error:
            self.query_one("#new-error", Static).update(Text(str(error), style="bold"))
            self.query_one("#new-error").add_class("error")
            return
        host(self).start_match(settings)

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#back")
    def _back_pressed(self) -> None:
        self.app.pop_screen()
