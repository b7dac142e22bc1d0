"""`dominoes` where there is no terminal to draw on: one line and exit status 2, never a screen drawn
into a file or a core spun on a closed input; TERM=dumb is told why; and every printing command
ends quietly when its reader stops reading (`dominoes saves | head`)."""

from __future__ import annotations

import subprocess

import pytest

from saves import Autosave, SaveStore
from saves.lock import lock_path
from tests.processes import WAIT, InTerminal, dominoes_argv, environment
from tests.saves.builders import small_match

NEEDS_A_TERMINAL = "the interface needs a terminal, and standard input is not one"


@pytest.fixture
def home(tmp_path):
    store = SaveStore(tmp_path / "saves")
    Autosave(store, small_match(), "3f9a2c1b7e40")()
    return tmp_path


@pytest.mark.parametrize(
    ("arguments", "command"),
    [
        ((), "dominoes"),
        (("new", "moon", "--seats", "bot,bot,bot"), "dominoes new"),
        (("--resume", "3f9a"), "dominoes --resume"),
        (("learn", "moon"), "dominoes learn"),
        (("join", "127.0.0.1:9", "--name", "Ann"), "dominoes join"),
        (("lobby", "--name", "Ann"), "dominoes lobby"),
        (("learn", "moon"), "dominoes learn"),
    ],
)
def test_without_a_terminal_the_interface_says_so_and_exits_2(home, arguments, command):
    output = home / "out.txt"
    with output.open("w") as out:
        ended = subprocess.run(
            dominoes_argv(*arguments),
            env=environment(home),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            timeout=WAIT,  # today's bug drew into the file and spun here forever
        )
    assert ended.returncode == 2 and output.read_text() == ""
    assert ended.stderr.count("\n") == 1 and ended.stderr.startswith(f"{command}: {NEEDS_A_TERMINAL}")
    assert not lock_path(home / "saves", "3f9a2c1b7e40").exists()  # --resume let the match go


def test_a_bot_match_piped_into_another_program_is_refused_at_once(home):
    # `dominoes new ... | head`: a terminal on standard input, a pipe on standard output.
    shell = f"{' '.join(dominoes_argv('new', 'moon', '--seats', 'bot,bot,bot'))} | head -5; exit ${{PIPESTATUS[0]}}"
    terminal = InTerminal(["bash", "-c", shell], environment(home))
    try:
        assert terminal.finish() == 2
        assert "dominoes new: the interface needs a terminal, and standard output is not one" in terminal.text()
    finally:
        terminal.close()


def test_a_dumb_terminal_is_told_why_in_plain_words(home):
    terminal = InTerminal(dominoes_argv(), environment(home, TERM="dumb"))
    try:
        assert terminal.finish() == 2
        raw = bytes(terminal._output)
        assert b"\x1b" not in raw  # not one colour code, not one cursor move
        assert raw.decode().strip() == (
            "dominoes: this terminal (TERM=dumb) cannot draw the interface; "
            "run it in one that can (TERM=xterm-256color, for example)"
        )
    finally:
        terminal.close()


@pytest.mark.parametrize(
    "arguments",
    [
        ("--version",),
        ("--help",),
        ("saves",),
        ("saves", "show", "3f9a"),
        ("simulate", "--game", "moon", "--matches", "3", "--seed", "1"),
        ("simulate", "--game", "moon", "--matches", "2", "--seed", "1", "--json"),
        ("tournament", "--game", "moon", "--bots", "easy,easy,random", "--matches", "1"),
        ("host", "--help"),
    ],
    ids=" ".join,
)
def test_a_closed_pipe_ends_a_printing_command_quietly(home, arguments):
    process = subprocess.Popen(
        dominoes_argv(*arguments),
        env=environment(home),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()  # the reader is gone before the first line: `| head -0`
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode in (0, 141) and err == b""
