"""Run the AI-seat and turn-timer scheduler as its own process.

For deployments that set SCHEDULER=off on the web workers; several may run.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.management.base import BaseCommand

from games.scheduler import Scheduler, worker_pool


class Command(BaseCommand):
    help = "Play AI seats and expired turn timers, and run Sokoban solves, until stopped."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--once", action="store_true", help="one pass, bots thinking inline, then exit")

    def handle(self, *args: Any, **options: Any) -> None:
        from games.sokoban import jobs

        if options["once"]:
            stored = Scheduler().tick()
            solved = jobs.run_queued()
            self.stdout.write(f"{stored} move(s) stored, {solved} solve(s) run")
            return
        stop = threading.Event()
        threading.Thread(target=jobs.run_forever, args=(stop,), daemon=True).start()
        try:
            Scheduler(worker_pool()).run_forever(stop)
        except KeyboardInterrupt:
            stop.set()
