"""How nice a served session is, by how many its door runs (net.session_priority)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from net.session_priority import (
    DOOR_SHARE,
    MOST_NICE,
    WEIGHT_STEP,
    SeatPriority,
    session_nice,
    shown_group_niceness,
)


def test_the_first_few_sessions_run_as_the_door_does():
    assert [session_nice(count) for count in range(1, int(DOOR_SHARE) + 1)] == [0] * int(DOOR_SHARE)


def test_beyond_them_sessions_together_weigh_about_door_share_doors_and_never_more():
    for count in (4, 10, 20, 50, 100):
        nice = session_nice(count)
        assert 0 < nice < MOST_NICE
        assert count * WEIGHT_STEP**-nice <= DOOR_SHARE < count * WEIGHT_STEP ** -(nice - 1)  # the least that does


def test_two_hundred_sessions_run_at_the_lowest_priority():
    assert session_nice(200) == session_nice(10_000) == MOST_NICE
    assert [session_nice(count) for count in range(1, 300)] == sorted(session_nice(count) for count in range(1, 300))


def test_a_scheduling_group_shown_empty_is_none_not_a_failure():
    # The kernel shows nothing for a process in the machine's first group (a container's first
    # process and what it starts without a process session of its own): no group to renice.
    assert shown_group_niceness("") is None
    assert shown_group_niceness("/autogroup-12 nice 5\n") == 5
    assert shown_group_niceness("/autogroup-3 nice -2\n") == -2


SEATED_CHILD = """
import os, sys, time
from pathlib import Path
from net.session_priority import SeatPriority, shown_group_niceness
os.setsid()  # a process session of its own: a scheduling group of its own, as a served session has
os.setpriority(os.PRIO_PROCESS, 0, 19)  # as the door makes a session when 200 run
Path("/proc/self/autogroup").write_text("19")
def group():
    return shown_group_niceness(Path("/proc/self/autogroup").read_text())
seen = [group()]
seat = SeatPriority()
for _ in range(50):  # the kernel takes one group's change in all the machine every 0.1 s
    seat.hold()
    if group() == 0:
        break
    time.sleep(0.1)
seen.append(group())
for _ in range(50):
    seat.release()
    if group() == 19:
        break
    seat.seated = True
    time.sleep(0.1)
seen.append(group())
print(*seen)
"""


def test_a_seated_session_answers_as_the_door_and_gives_it_back_when_it_leaves():
    if not Path("/proc/self/autogroup").exists():
        SeatPriority().hold()  # no scheduling groups here: nothing to change, and nothing fails
        return
    done = subprocess.run([sys.executable, "-c", SEATED_CHILD], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["19", "0", "19"], done.stderr
