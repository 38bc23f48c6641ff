"""Level checks share their slots round-robin between players (games/sokoban/fair.py)."""

from __future__ import annotations

import threading
import time

from games.sokoban.fair import FairSlots


def wait_until(condition: object, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.001)


def queue_up(slots: FairSlots, owner: str, order: list[str], name: str) -> threading.Thread:
    waiting = sum(len(q) for q in slots.waiting.values())

    def run() -> None:
        with slots.slot(owner):
            order.append(name)

    thread = threading.Thread(target=run)
    thread.start()
    wait_until(lambda: sum(len(q) for q in slots.waiting.values()) == waiting + 1)
    return thread


def test_a_player_with_many_waiting_takes_turns_with_one_who_has_one() -> None:
    slots = FairSlots(1)
    order: list[str] = []
    slots.acquire("someone")  # every slot busy while the queue forms
    threads = [queue_up(slots, "ann", order, f"ann{i}") for i in range(1, 4)]
    threads.append(queue_up(slots, "bob", order, "bob1"))
    slots.release()
    for thread in threads:
        thread.join(5)
    assert order == ["ann1", "bob1", "ann2", "ann3"]
    assert slots.busy == 0 and not slots.waiting


def test_up_to_size_run_at_once() -> None:
    slots = FairSlots(2)
    inside, most = [0], [0]
    lock = threading.Lock()
    release = threading.Event()

    def run(owner: str) -> None:
        with slots.slot(owner):
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            release.wait(5)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=run, args=(owner,)) for owner in ("ann", "ann", "ann", "bob")]
    for thread in threads:
        thread.start()
    wait_until(lambda: slots.busy == 2)
    release.set()
    for thread in threads:
        thread.join(5)
    assert most[0] == 2 and slots.busy == 0
