"""What Sokoban tells its players over their sockets: a solve's progress and result."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games import broadcast

from .models import SolveJob
from .selectors import job_json


def solve_changed(job_id: Any) -> None:
    """Push the job to its owner's sockets once the change is committed.

    Outside a transaction ``on_commit`` runs at once; inside one, the push
    waits for the commit, so a rollback is never announced.
    """

    def push() -> None:
        job = SolveJob.objects.get(pk=job_id)
        broadcast.to_user(job.user_id, {"type": "solve", "job": job_json(job)})

    transaction.on_commit(push, robust=True)
