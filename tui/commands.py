"""A command palette provider for every action the current screen offers on a key."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class ScreenActions(Provider):
    """Lists the active screen's bindings (those usable now), so every key is also a command; a
    binding's tooltip, where it has one, names it better than its footer word; the ones Textual's own
    commands already offer under the same name (Theme, Quit) only once."""

    def _commands(self) -> list[tuple[str, str, object]]:
        commands = []
        seen = {command.title for command in self.app.get_system_commands(self.screen)}
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            title = binding.tooltip or binding.description
            if not active.enabled or not title or title in seen:
                continue
            if binding.action.startswith("app.command_palette") or binding.action == "command_palette":
                continue
            seen.add(title)
            shown = binding.key_display or key
            runner = partial(self.app.run_action, binding.action, active.node)
            commands.append((title, f"key: {shown}", runner))
        return commands

    async def discover(self) -> Hits:
        for title, help_text, runner in self._commands():
            yield DiscoveryHit(title, runner, help=help_text)  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, runner in self._commands():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), runner, help=help_text)  # type: ignore[arg-type]
