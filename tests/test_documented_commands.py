"""Every `dominoes ...` command the README and the manual show is one the program accepts: a renamed
or removed flag fails here rather than leaving the documentation behind.

A line of a shell code block is a whole command: the program's own parser must take it. Inline code
(`dominoes host --resume`) often names a command or a flag in passing, without its arguments: there
the command and each flag named must be the program's."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from cli.parser import build_parser
from cli.usage import UsageError

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
FENCE = re.compile(r"^```(\w*)\s*$")
INLINE = re.compile(r"`((?:\.venv/bin/)?dominoes(?: [^`]*)?)`")
PROGRAM = re.compile(r"^(?:\S+=\S+ )*(?:\.venv/bin/)?dominoes(?: |$)")


SHELL_OPERATOR = re.compile(r"\s*(?:&&|\|\||;|\||<|>)\s*")


def command_lines(text: str) -> tuple[list[str], list[str]]:
    """The `dominoes` commands of a Markdown text: the lines of its shell code blocks that run
    `dominoes` (after any VAR=value settings, in a pipeline or after `&&` too), and its inline code
    that starts with `dominoes` (up to any shell operator)."""
    found: list[str] = []
    mentioned: list[str] = []
    in_shell = False
    in_block = False
    for line in text.splitlines():
        fence = FENCE.match(line.strip())
        if fence:
            in_shell = not in_block and fence.group(1) in ("sh", "bash", "shell", "console")
            in_block = not in_block
            continue
        if in_block and in_shell:
            code = line.split(" # ")[0].strip()
            found += [part for part in SHELL_OPERATOR.split(code) if PROGRAM.match(part)]
        elif not in_block:
            mentioned += [SHELL_OPERATOR.split(span)[0] for span in INLINE.findall(line)]
    return found, mentioned


def arguments(command: str) -> list[str]:
    words = shlex.split(command)
    while "=" in words[0] and not words[0].endswith("dominoes"):
        words.pop(0)  # VAR=value before the program
    return words[1:]


def unknown_names(command: str) -> list[str]:
    """What inline code names that the program lacks: its command (and `saves` action), and any
    `--flag` that command does not take."""
    parser: argparse.ArgumentParser = build_parser()
    words = arguments(command)
    for word in words:
        if word.startswith("-"):
            break
        commands = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
        if not commands:
            break
        if word not in commands[0].choices:
            return [word]
        parser = commands[0].choices[word]
    flags = {flag for action in parser._actions for flag in action.option_strings}
    return [word.split("=")[0] for word in words if word.startswith("--") and word.split("=")[0] not in flags]


def documented() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    lines: set[tuple[str, str]] = set()
    mentions: set[tuple[str, str]] = set()
    for path in DOCUMENTS:
        found, mentioned = command_lines(path.read_text())
        name = path.relative_to(ROOT).as_posix()
        lines |= {(name, line) for line in found}
        mentions |= {(name, line) for line in mentioned}
    return sorted(lines), sorted(mentions)


DOCUMENTED, MENTIONED = documented()


def test_the_documents_show_commands_to_check():
    # Fails if the extraction stops finding the commands (a changed fence or prefix).
    assert len([line for path, line in DOCUMENTED if path == "README.md"]) >= 5
    assert any(line.startswith(".venv/bin/dominoes new ") for _, line in DOCUMENTED)
    assert len(MENTIONED) >= 10


def test_a_flag_the_program_lacks_is_caught_in_a_block_and_inline():
    text = "```sh\n.venv/bin/dominoes new doubles --no-such-flag  # a comment\n```\nthen `dominoes host --nope | head`"
    (command,), (mention,) = command_lines(text)
    with pytest.raises(UsageError, match="unrecognized arguments: --no-such-flag"):
        build_parser().parse_args(arguments(command))
    assert mention == "dominoes host --nope" and unknown_names(mention) == ["--nope"]
    assert unknown_names("dominoes hots") == ["hots"] and unknown_names("dominoes saves verify2 ID") == ["verify2"]
    assert unknown_names("dominoes host --resume") == []


@pytest.mark.parametrize(("document", "command"), DOCUMENTED)
def test_every_documented_command_line_parses(document: str, command: str):
    try:
        build_parser().parse_args(arguments(command))
    except UsageError as error:
        pytest.fail(f"{document}: `{command}` is refused: {error}")


@pytest.mark.parametrize(("document", "command"), MENTIONED)
def test_every_command_and_flag_named_in_the_text_is_the_programs(document: str, command: str):
    assert unknown_names(command) == [], f"{document}: `{command}`"
