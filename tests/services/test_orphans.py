"""A server killed with SIGKILL leaves no processes behind (issue 10).

A real server is made to start every kind of child it has: the AI workers
(a Connect Four game against the computer) and a Sokoban solve (breadth-first
on a level far beyond it, with a minute's limit). Then it is killed with
SIGKILL, which runs no clean-up of its own: its children must notice and go.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx

from tests.servers import Server, manage, server_env


def descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            for child in children:
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its parent's reaping is left


def test_a_killed_server_leaves_no_children(tmp_path: Path) -> None:
    env = server_env(DATABASE_URL=f"sqlite:///{tmp_path}/orphans.sqlite3")
    manage(env, "migrate", "--noinput")
    server = Server(env).start()
    assert server.process is not None
    try:
        http = httpx.Client(base_url=server.url, timeout=10)
        token = http.post("/api/auth/register/", json={"username": "lonely", "password": "long-enough"}).json()["token"]
        http.headers["Authorization"] = f"Token {token}"
        room = http.post("/api/rooms/", json={"game": "connect-four", "options": {"ai": "perfect"}}).json()
        match = http.post(f"/api/rooms/{room['id']}/start/").json()
        if match["to_move"] == [match["players"][0]["seat"]] and match["players"][0]["username"] == "lonely":
            http.post(f"/api/matches/{match['id']}/moves/", json={"move": "4", "version": match["version"]})
        levels = http.get("/api/sokoban/levels/", params={"collection": "Microban II", "page_size": 200}).json()
        hard = max(levels["results"], key=lambda level: level["boxes"])["id"]
        job = http.post("/api/sokoban/solve/", json={"level_id": hard, "algorithm": "bfs", "time_limit": 60})
        assert job.status_code == 201, job.text
        # Wait for both kinds of child: the pool's workers and the solve.
        deadline = time.monotonic() + 30
        children: set[int] = set()
        while time.monotonic() < deadline:
            children = descendants(server.process.pid)
            solving = http.get(f"/api/sokoban/solve/{job.json()['id']}/").json()["status"] == "running"
            if solving and len(children) >= 3:
                break
            time.sleep(0.3)
        assert len(children) >= 3, children
    finally:
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(pid) for pid in children):
        time.sleep(0.2)
    left = [(pid, Path(f"/proc/{pid}/cmdline").read_bytes()[:80]) for pid in children if alive(pid)]
    assert left == [], left
