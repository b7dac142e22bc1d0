"""What every test needs, whoever started the suite."""

from __future__ import annotations

import os
import signal

# Tests stop the hosts they start with Ctrl+C (SIGINT), as a player would. A suite started with
# SIGINT ignored (a background job of a script, some CI runners) would hand that on to every
# process it starts, and the hosts would never hear it: a handler of our own is not inherited.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_xdist_auto_num_workers(config: object) -> int:
    """`-n auto`: two workers a core. Many tests spend their time waiting for processes they
    started (hosts, servers, a browser) to answer, so a core has room for a second one."""
    return 2 * (os.cpu_count() or 1)
