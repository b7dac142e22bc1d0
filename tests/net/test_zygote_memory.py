"""What the warm session server does so that its sessions share its memory: objects made immortal
where CPython can (warm_sessions.immortal), the heap's holes taken up (warm_sessions.heap_holes). Each runs in a
process of its own, never in the test's."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TIMEOUT = 120


def run_python(code: str, *arguments: str) -> list[str]:
    """The lines `code` prints, run by this Python in a process of its own (`arguments` in sys.argv)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")


# A forked child reads every string of a big list (taking and dropping a reference to each), and
# says how much memory that made its own: the pages it had to copy from its parent.
READ_IN_A_CHILD = """
    import gc, os, sys
    from warm_sessions.immortal import immortalize

    def private_kib():
        with open("/proc/self/smaps_rollup") as rollup:
            return next(int(line.split()[1]) for line in rollup if line.startswith("Private_Dirty:"))

    strings = [f"string number {n}" for n in range(200_000)]  # about 14 MiB of objects
    gc.collect()
    result = immortalize() if sys.argv[-1:] != ["plain"] else None
    gc.freeze()
    print(result.objects if result else 0)
    print(result.why_not if result else "")
    read, written = os.pipe()
    pid = os.fork()
    if pid == 0:
        before = private_kib()
        for text in strings:
            held = text  # a reference taken, and dropped at the next
        os.write(written, str(private_kib() - before).encode())
        os._exit(0)
    os.close(written)
    print(os.read(read, 100).decode())
    os.waitpid(pid, 0)
"""


def test_a_child_reads_an_immortal_parents_objects_without_copying_them_where_cpython_can():
    made, why_not, copied_kib = run_python(READ_IN_A_CHILD)[:3]
    if sys.version_info >= (3, 12):
        assert int(made) > 200_000 and why_not == ""
        assert int(copied_kib) < 1024, f"the child copied {copied_kib} KiB to read immortal objects"
    else:  # CPython 3.11 counts every reference: nothing is made immortal, and the child copies the pages
        assert made == "0" and why_not == "objects are immortal only from CPython 3.12"
        assert int(copied_kib) > 8 * 1024


def test_without_immortal_objects_the_child_copies_what_it_reads():
    """The measure above can tell: reading the same objects, mortal, copies their pages."""
    assert int(run_python(READ_IN_A_CHILD, "plain")[2]) > 8 * 1024


def test_immortal_objects_still_work_and_their_reference_counts_no_longer_move():
    lines = run_python("""
        import json, sys
        from warm_sessions.immortal import immortalize
        immortalize()
        before = sys.getrefcount(json.dumps)
        held = [json.dumps] * 1000
        print(before == sys.getrefcount(json.dumps), json.dumps({"still": ["working"]}))
    """)
    assert lines[0] == f'{sys.version_info >= (3, 12)} {{"still": ["working"]}}'


def test_the_heaps_holes_are_taken_up():
    """Holes made on purpose (every other object freed) in both allocators are filled."""
    lines = run_python("""
        import gc
        from warm_sessions import heap_holes
        small = [bytes(200) for _ in range(40_000)]  # 233-byte requests: one size class
        large = [bytes(3000) for _ in range(4_000)]  # the C library's heap
        del small[::2], large[::2]
        gc.collect()
        size = 240
        libc = heap_holes._libc()

        def free_chunks():
            return sum(count for _, count in heap_holes.free_heap_chunks(libc)) if libc else -1

        print(heap_holes.free_small_blocks().get(size, 0), free_chunks())
        heap_holes.fill()
        print(heap_holes.free_small_blocks().get(size, 0), free_chunks())
    """)
    holes_small, holes_heap = map(int, lines[0].split())
    left_small, left_heap = map(int, lines[1].split())
    assert holes_small >= 15_000 and left_small < 100  # what is left is the end of one pool, never used
    if sys.platform == "linux" and holes_heap >= 0:  # glibc: its report of free chunks is read
        assert holes_heap >= 1_500 and left_heap <= 20  # the report's own, read after filling


def test_the_list_of_hot_code_names_code_there_is():
    """A list gone stale packs little: make it anew with `python -m warm_sessions.hot_code --write`."""
    lines = run_python("""
        from warm_sessions import hot_code
        from warm_sessions.zygote import preload
        preload()
        names, there = hot_code.hot_names(), hot_code.code_by_name()
        print(len(names), sum(1 for name in names if name in there))
    """)
    named, found = map(int, lines[0].split())
    assert named > 1000 and found >= 0.9 * named, f"{found} of {named} names found: make the list anew"


def test_packed_code_lies_together_and_runs_as_before():
    lines = run_python("""
        import gc, sys
        from warm_sessions import heap_holes, hot_code
        from warm_sessions.zygote import preload
        from core import Match
        from tests.core.harness import play_out

        def pages(codes):
            ends = [(id(code), id(code) + sys.getsizeof(code)) for code in codes]
            return len({start // 4096 for start, _ in ends} | {end // 4096 for _, end in ends})

        def hot():
            there = hot_code.code_by_name()
            return [code for name in hot_code.hot_names() for code in there.get(name, ())]

        preload()
        before = play_out(Match("chicken-foot", 4, seed=7), 7)
        gc.collect()
        heap_holes.fill()
        spread = pages(hot())
        packed = hot_code.pack(hot_code.hot_names())
        print(spread, pages(hot()), packed.found, packed.copied)
        after = play_out(Match("chicken-foot", 4, seed=7), 7)
        print(after.state == before.state, [e for e in after.events] == [e for e in before.events])
    """)
    spread, together, found, copied = map(int, lines[0].split())
    assert copied >= found > 1000
    assert together < 0.6 * spread, f"the hot code spans {together} pages, {spread} before"
    assert lines[1] == "True True"  # the same match, played by the packed code


def test_what_cpython_fills_in_on_first_use_is_filled_in_before_forking():
    """warm_sessions.settled: a string's hash, a class's version tag and the version of a module's globals'
    keys are written into objects on their first use; the zygote settles them, so a session does
    not write to (and copy) the pages they are on. Read from where CPython 3.11 and 3.12 keep them."""
    lines = run_python(
        """
        import ctypes, sys, types
        from warm_sessions.settled import settle

        HASH_AT = 24  # a str's stored hash: -1 until it is first hashed
        KEYS_AT, KEYS_VERSION_AT = 32, 12  # a dict's keys, and their version: 0 until first asked for
        text = "".join(["domi", "noes"])  # made now, never hashed
        module = types.ModuleType("a_module")
        exec("tiles = 28; calls = []; len = range = lambda *what: calls.append(what)", vars(module))  # never called
        names = set(vars(module))
        keys = ctypes.c_void_p.from_address(id(vars(module)) + KEYS_AT).value

        def stored_hash():
            return ctypes.c_ssize_t.from_address(id(text) + HASH_AT).value

        def keys_version():
            return ctypes.c_uint32.from_address(keys + KEYS_VERSION_AT).value

        class Fresh:
            pass

        print(stored_hash(), keys_version())
        settled = settle([text, module, Fresh])
        print(stored_hash() == hash(text), keys_version() != 0, set(vars(module)) == names, module.tiles, module.calls)
        print(settled.hashed, settled.versioned, settled.tagged)
        """
    )
    assert lines[0] == "-1 0"  # nothing filled in yet
    assert lines[1] == "True True True 28 []"  # filled in, and the module's globals are as they were
    tagged = 1 if sys.version_info >= (3, 12) else 0  # PyUnstable_Type_AssignVersionTag is from 3.12
    assert lines[2] == f"1 1 {tagged}"


def test_css_one_stylesheet_parsed_is_parsed_for_the_next_with_the_same_variables_once_shared():
    lines = run_python(
        """
        from textual.css import stylesheet
        from tui.textual_fixes import share_parsed_css

        parsed = []
        parse = stylesheet.parse
        stylesheet.parse = lambda *arguments, **options: parsed.append(1) or parse(*arguments, **options)

        def rules(variables, css="Label { color: $accent; }"):
            sheet = stylesheet.Stylesheet(variables=variables)
            sheet.add_source(css, read_from=("test", "CSS"))
            sheet.parse()
            return sheet.rules

        theme, other = {"accent": "red"}, {"accent": "blue"}
        rules(theme), rules(theme)
        print("alone", len(parsed))  # Textual's own way: each stylesheet parses
        share_parsed_css()
        parsed.clear()
        first, second = rules(theme), rules(theme)
        print("shared", len(parsed), first[0] is second[0])
        rules(other)  # other variables: parsed anew, with them
        print("other", len(parsed), str(rules(other)[0].styles.color))
        """
    )
    assert lines[:3] == ["alone 2", "shared 1 True", "other 2 Color(0, 0, 255)"]


def test_the_warm_process_parses_a_lobbys_css_and_leaves_nothing_behind(tmp_path):
    lines = run_python(
        """
        import os, sys, threading
        from pathlib import Path
        from textual.css import stylesheet

        home = Path(sys.argv[1])
        os.environ["DOMINOES_HOME"] = str(home)
        from warm_sessions.zygote import parse_lobby_css, preload
        preload()
        print("kept", parse_lobby_css() > 10)
        print("threads", threading.active_count(), "home", os.environ["DOMINOES_HOME"] == str(home))
        print("server home", os.environ.get("DOMINOES_SERVER_HOME"), "files", sorted(os.listdir(home)))

        # A lobby started now, as in a session forked from this process, parses no CSS of its own.
        import asyncio
        from tui.lobby_app import LobbyApp
        from tui.preferences import Preferences
        parsed = []
        parse = stylesheet.parse
        stylesheet.parse = lambda *arguments, **options: parsed.append(1) or parse(*arguments, **options)

        async def lobby():
            async with LobbyApp("Ann", preferences=Preferences()).run_test(headless=True) as pilot:
                await pilot.pause()

        asyncio.run(lobby())
        print("parsed", len(parsed))
        """,
        str(tmp_path),
    )
    assert lines[:4] == ["kept True", "threads 1 home True", "server home None files []", "parsed 0"]


def test_a_session_measuring_a_wide_or_symbol_character_imports_nothing_after_the_preload():
    """Rich reads its table of character widths (a module of its own) when a string is first not
    all of characters it knows are one cell wide; loaded before the fork, every session shares it."""
    lines = run_python(
        """
        import sys
        from warm_sessions.zygote import preload
        from rich.cells import cell_len

        preload()
        before = set(sys.modules)
        cell_len("★🀱✓")
        print(sorted(set(sys.modules) - before))
        """
    )
    assert lines[0] == "[]"


def test_a_processs_anonymous_memory_is_offered_for_same_page_merging_and_a_fork_inherits_the_offer():
    lines = run_python("""
        import os
        from warm_sessions.page_merging import kernel_merging, offer, private_anonymous

        def offered_kib():
            # smaps lists each mapping's flags; "mg" marks one offered (VM_MERGEABLE)
            total = offered = 0
            with open("/proc/self/smaps") as smaps:
                for line in smaps:
                    fields = line.split()
                    if "-" in fields[0] and len(fields) >= 5:
                        anonymous = bool(private_anonymous([line]))
                    elif fields[0] == "Size:" and anonymous:
                        size = int(fields[1])
                        total += size
                    elif fields[0] == "VmFlags:" and anonymous and "mg" in fields[1:]:
                        offered += size
            return offered, total

        print(kernel_merging(), *offered_kib())
        result = offer()
        print(result.bytes // 1024, result.why_not or "-", *offered_kib())
        read, write = os.pipe()
        if os.fork() == 0:
            os.write(write, " ".join(map(str, offered_kib())).encode())
            os._exit(0)
        os.close(write)
        print(os.read(read, 100).decode())
    """)
    kernel, before, _ = lines[0].split()
    offered, why_not, after, total = lines[1].split()
    child_offered, child_total = map(int, lines[2].split())
    assert int(before) == 0  # nothing is offered until asked
    if kernel == "absent":  # a kernel built without KSM refuses, and says so
        assert int(offered) == 0 and why_not != "-"
        return
    assert why_not == "-" and int(offered) > 1024
    # Every private anonymous mapping, the heap's too (reading smaps may map a little more after).
    assert int(after) >= 0.9 * int(total)
    assert child_offered >= 0.9 * child_total  # the child's copies of them are offered as well


def test_private_anonymous_mappings_are_told_from_files_stacks_and_shared_memory():
    from warm_sessions.page_merging import kernel_merging, private_anonymous

    maps = [
        "55d0c000-55d0e000 rw-p 00000000 00:00 0                          [heap]",
        "7f00a000-7f00c000 rw-p 00000000 00:00 0 ",
        "7f00c000-7f00d000 rw-p 00002000 fe:01 1234                       /usr/lib/libc.so.6",
        "7f00d000-7f00e000 r--p 00000000 00:00 0 ",
        "7f00e000-7f00f000 rw-s 00000000 00:01 77                         /dev/zero (deleted)",
        "7ffd0000-7ffd2000 rw-p 00000000 00:00 0                          [stack]",
    ]
    assert private_anonymous(maps) == [(0x55D0C000, 0x55D0E000), (0x7F00A000, 0x7F00C000)]
    assert kernel_merging(Path("/nonexistent/ksm/run")) == "absent"


def test_the_kernels_same_page_merging_is_read_as_running_or_off(tmp_path):
    from warm_sessions.page_merging import kernel_merging

    run = tmp_path / "run"
    for written, state in (("1\n", "running"), ("0\n", "off"), ("2\n", "off")):
        run.write_text(written)
        assert kernel_merging(run) == state
