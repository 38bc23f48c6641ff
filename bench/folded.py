"""Summarise a py-spy raw (folded) profile: where the time goes, by function, inclusive.

    .venv/bin/python bench/folded.py PROFILE [--top 60] [--skip-idle]
"""

from __future__ import annotations

import argparse
import collections

# Frames at the top of a stack that mean the thread was waiting, not working.
IDLE = ("select (selectors", "Condition.wait", "_worker (concurrent", "wait (threading", "Event.wait")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("profile")
    parser.add_argument("--top", type=int, default=60)
    args = parser.parse_args()
    total = 0
    inclusive: collections.Counter[str] = collections.Counter()
    for line in open(args.profile, encoding="utf-8"):
        stack, _, count = line.rstrip().rpartition(" ")
        if not count.isdigit():
            continue  # a line cut short where the recording was stopped
        frames = stack.split(";")
        if any(frames[-1].startswith(idle) or idle in frames[-1] for idle in IDLE):
            continue
        samples = int(count)
        total += samples
        seen: set[str] = set()
        for frame in frames:
            name, _, where = frame.partition(" (")
            key = f"{name} ({where.split(':')[0]})"
            if key not in seen:
                inclusive[key] += samples
                seen.add(key)
    print(f"{total} working samples")
    for key, samples in inclusive.most_common(args.top):
        print(f"{100 * samples / total:5.1f}% {key[:140]}")


if __name__ == "__main__":
    main()
