"""The line every benchmark prints first: which machine and which Python produced its figures."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores; {platform.python_implementation()} {platform.python_version()}"
