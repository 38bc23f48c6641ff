"""Run the AI-seat and turn-timer scheduler as its own process.

For deployments that set SCHEDULER=off on the web workers; several may run.
It also runs the apps' periodic jobs (pairing) and background workers (solves).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.management.base import BaseCommand

from core import hooks
from games.scheduler import Scheduler, run_periodic_jobs, worker_pool


class Command(BaseCommand):
    help = "Play AI seats and expired turn timers, pair seeks, and run the apps' workers, until stopped."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="one pass, bots thinking inline, then exit")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["once"]:
            stored = Scheduler().tick()
            run_periodic_jobs()
            done = {worker.name: worker.run_once() for worker in hooks.BACKGROUND}
            self.stdout.write(f"{stored} move(s) stored; " + ", ".join(f"{name}: {n}" for name, n in done.items()))
            return
        stop = threading.Event()
        for worker in hooks.BACKGROUND:
            threading.Thread(target=worker.run_forever, args=(stop,), name=worker.name, daemon=True).start()
        try:
            Scheduler(worker_pool()).run_forever(stop)
        except KeyboardInterrupt:
            stop.set()
