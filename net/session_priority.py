"""A served session gives way to its door: when the machine is busy, the door comes first.

Each session is a process session of its own (setsid, for its controlling terminal), and Linux
puts every process session in a scheduling group of its own (an autogroup), weighted like the
door's whole group. With 200 sessions watching bots at instant speed the door, the one process
that reads, encrypts and sends every session's output, got one part in 201 of the processor: the
sessions drew at their own pace and their players saw nothing for tens of seconds. A session
lowers its group's weight, and its own priority for machines where the groups are cgroups (under a
service manager), so the door is served first and the sessions share the rest evenly. On a quiet
machine nothing changes: priority only decides who waits when everyone wants the processor.

As nice as can be: at 10 (the door's group then weighs as much as 9 sessions) 200 browser
sessions left the web door a twentieth of the processor, its loop fell more than 10 s behind and
its heartbeats closed every socket; at 19 (as much as 68 sessions) both doors kept all 200.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

SESSION_NICE = 19  # how much nicer a session is than its door (niceness runs from -20 to 19)
AUTOGROUP = Path("/proc/self/autogroup")


def give_way_to_the_door() -> None:
    """In a session's process, after setsid: lower its priority below the door's, and its new
    group's to the same niceness. Where the platform has neither (or refuses), the session runs as
    before."""
    with contextlib.suppress(OSError):
        os.nice(SESSION_NICE)
    with contextlib.suppress(OSError):
        AUTOGROUP.write_text(str(os.nice(0)))
