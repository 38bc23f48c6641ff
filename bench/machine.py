"""What machine a benchmark ran on, for its report (docs/benchmarks.md asks for it)."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_line() -> str:
    load = ", load %.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else ""
    return f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}{load}"
