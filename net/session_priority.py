"""A served session gives way to its door when the machine is busy with many of them.

Each session is a process session of its own (setsid, for its controlling terminal), and Linux
puts every process session in a scheduling group of its own (an autogroup), weighted like the
door's whole group. With 200 sessions watching bots at instant speed the door, the one process
that reads, encrypts and sends every session's output, got one part in 201 of the processor: the
sessions drew at their own pace and their players saw nothing for tens of seconds.

So sessions together weigh about DOOR_SHARE doors: the first few run as the door does, and each
session started after them is nicer (its group too, and its own priority for machines where the
groups are cgroups, as under a service manager), enough that the door, the sessions and anything
else on the machine still share it as before while only a few sessions run; the door lowers the
sessions already running to the same niceness. At 200 sessions that is 19, the lowest priority
(at 10 the web door's loop fell more than 10 s behind and its heartbeats closed 198 of 200
sockets). On a quiet machine none of it changes anything: priority only decides who waits when
everyone wants the processor.

A session whose player sits at a shared table is the exception (`SeatPriority`): it brings its group
back to the door's niceness while the player is seated, so the keys of the people playing answer
at once however many others watch.
"""

from __future__ import annotations

import contextlib
import math
import os
from pathlib import Path

DOOR_SHARE = 3.0  # how many doors' weight the sessions together have, at most (beyond the first few)
WEIGHT_STEP = 1.25  # each step of niceness divides a scheduling group's weight by about this much
MOST_NICE = 19


def session_nice(sessions: int) -> int:
    """How many steps nicer than the door a session is when the door runs `sessions` (itself
    included): none for the first DOOR_SHARE, then enough that they weigh about DOOR_SHARE doors."""
    if sessions <= DOOR_SHARE:
        return 0
    return min(MOST_NICE, math.ceil(math.log(sessions / DOOR_SHARE, WEIGHT_STEP)))


def niceness(steps: int) -> int:
    """In the door: the niceness `steps` nicer than its own."""
    return min(MOST_NICE, os.nice(0) + steps)


def give_way_to_the_door(nice: int) -> None:
    """In a session's process, after setsid: at least `nice` (the door may have made it nicer
    already), and its new scheduling group as nice. Where the platform has neither (or refuses),
    the session runs as before."""
    with contextlib.suppress(OSError):
        if os.getpriority(os.PRIO_PROCESS, 0) < nice:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(str(os.getpriority(os.PRIO_PROCESS, 0)))


def group_niceness(pid: int) -> int | None:
    """The niceness of the process's scheduling group; None where it has none of its own: a kernel
    without such groups, or a process in the machine's first group, which has no niceness."""
    try:
        return shown_group_niceness(Path(f"/proc/{pid}/autogroup").read_text())
    except FileNotFoundError:
        return None


def shown_group_niceness(shown: str) -> int | None:
    """The niceness in what /proc/PID/autogroup shows ("/autogroup-12 nice 0"), None if empty:
    the kernel shows nothing for a process still in the machine's first group, one that never
    started a process session of its own since boot (as a container's first process)."""
    words = shown.split()
    return int(words[-1]) if words else None


def lower_priority(pid: int, nice: int) -> bool:
    """A running session of the door's at least `nice`, its threads and its group (never less
    nice: that would need a privilege); whether it is now. Not before the session has its own
    process session: until then its group is still the door's or the zygote's, and it takes its
    niceness itself."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            if int(stat.read().rsplit(")", 1)[1].split()[3]) != pid:  # its process session is not its own yet
                return False
        for thread in (int(name) for name in os.listdir(f"/proc/{pid}/task")):  # on Linux each has its own
            with contextlib.suppress(OSError):
                if os.getpriority(os.PRIO_PROCESS, thread) < nice:
                    os.setpriority(os.PRIO_PROCESS, thread, nice)
        group = group_niceness(pid)
        if group is not None and group < nice:
            Path(f"/proc/{pid}/autogroup").write_text(str(nice))
    except (OSError, ValueError):
        return False
    return True


SEATED_NICE = 0  # a session at a seat of a shared table: as the door


def set_own_group_niceness(nice: int) -> bool:
    """In a session: its scheduling group's niceness, up or down (a group's niceness may come down
    again without a privilege, to 0, at most once every 0.1 s in all the machine: a refusal then is
    tried again later). Whether it is `nice` now; False where the platform has no such groups."""
    try:
        if shown_group_niceness(Path("/proc/self/autogroup").read_text()) == nice:
            return True
        Path("/proc/self/autogroup").write_text(str(nice))
    except (OSError, ValueError):
        return False
    return True


class SeatPriority:
    """A session whose player sits at a shared table answers their keys first: while seated its
    group is as nice as the door (`SEATED_NICE`), above the sessions that only watch or wait in
    the lobby, however many there are; once the player leaves the seat it is given back the
    niceness the door gave the session (its own niceness, which only the door raises). A seated
    player is one person's keys and the table's moves, so a few of them never crowd the door out;
    a crowd of watchers redrawing the same move all at once would, without this, keep the players
    waiting a second for a key's frame. `hold()` is called again now and then: the door may have
    made the group nicer when more sessions came, or the kernel refused a change made too soon
    after another session's."""

    def __init__(self) -> None:
        self.seated = False

    def hold(self) -> None:
        self.seated = True
        set_own_group_niceness(SEATED_NICE)

    def release(self) -> None:
        if self.seated:
            self.seated = False
            with contextlib.suppress(OSError):
                set_own_group_niceness(os.getpriority(os.PRIO_PROCESS, 0))
