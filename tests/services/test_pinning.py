"""A server process keeps its threads on one core; its siblings take other cores; its children take them all back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.servers import ROOT

pytestmark = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores")

# A stand-in for a server process: pins itself, starts a thread and a spawned
# child (which calls die_with_parent first, as every child of the server
# does), and says what each may run on.
SERVER = textwrap.dedent(
    """
    import json, multiprocessing, os, sys, threading, time
    sys.path.insert(0, {root!r})
    from core import workers

    def child(queue):
        workers.die_with_parent()
        queue.put(sorted(os.sched_getaffinity(0)))

    if __name__ == "__main__":
        time.sleep(0.5)  # the sibling is started too
        core = workers.pin_to_one_core()
        seen = []
        thread = threading.Thread(target=lambda: seen.append(sorted(os.sched_getaffinity(0))))
        thread.start(); thread.join()
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        process = context.Process(target=child, args=(queue,))
        process.start()
        print(json.dumps({{"core": core, "main": sorted(os.sched_getaffinity(0)), "thread": seen[0], "child": queue.get(timeout=30)}}))
        process.join()
    """
)


def test_two_server_processes_take_different_cores_and_their_children_every_core(tmp_path: object) -> None:
    script = os.path.join(str(tmp_path), "server.py")
    with open(script, "w") as file:
        file.write(SERVER.format(root=str(ROOT)))
    env = {k: v for k, v in os.environ.items() if k != "BOARDGAMES_CPUS"}
    started = [subprocess.Popen([sys.executable, script], stdout=subprocess.PIPE, env=env) for _ in range(2)]
    said = [json.loads(process.communicate(timeout=60)[0]) for process in started]
    every = sorted(os.sched_getaffinity(0))
    assert sorted(one["core"] for one in said) == every[:2]
    for one in said:
        assert one["main"] == [one["core"]] and one["thread"] == [one["core"]]
        assert one["child"] == every
