from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .collections import UPLOADS
from .models import Level, Progress, SolveJob


def level_json(level: Level, progress: Progress | None = None, with_xsb: bool = True) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": level.pk,
        "collection": level.collection,
        "number": level.number,
        "title": level.title,
        "width": level.width,
        "height": level.height,
        "boxes": level.boxes,
        "verified": level.verified,
        "uploaded_by": level.uploaded_by.username if level.uploaded_by else None,
        # Solved by the player's own hand; a solve with the solver is counted apart.
        "solved": bool(progress and progress.solves),
        "solved_with_solver": bool(progress and progress.solver_solves),
        "best_moves": progress.best_moves if progress else None,
        "best_pushes": progress.best_pushes if progress else None,
    }
    if with_xsb:
        data["xsb"] = level.xsb
    return data


def levels(collection: str | None = None) -> QuerySet[Level]:
    found = Level.objects.select_related("uploaded_by").order_by("collection", "number")
    return found.filter(collection=collection) if collection else found


def progress_by_level(user: Any, level_ids: list[int]) -> dict[int, Progress]:
    return {p.level_id: p for p in Progress.objects.filter(user=user, level_id__in=level_ids)}


def collections(user: Any) -> list[dict[str, Any]]:
    from django.db.models import Count

    counts = Level.objects.values("collection").annotate(levels=Count("id")).order_by("collection")
    solved = dict(
        Progress.objects.filter(user=user, solves__gt=0).values("level__collection").annotate(n=Count("id")).values_list(
            "level__collection", "n"
        )
    )
    found = [{"name": c["collection"], "levels": c["levels"], "solved": solved.get(c["collection"], 0)} for c in counts]
    if not any(c["name"] == UPLOADS for c in found):
        found.append({"name": UPLOADS, "levels": 0, "solved": 0})  # always offered: players add to it
    return found


def job_json(job: SolveJob) -> dict[str, Any]:
    return {
        "id": str(job.pk),
        "status": job.status,
        "algorithm": job.algorithm,
        "level": job.level_id,
        "time_limit": job.time_limit,
        "expanded": job.expanded,
        "result": job.result,
        "error": job.error or None,
        "created_at": job.created_at.isoformat(),
        "finished_at": job.finished_at.isoformat() if job.finished_at else None,
    }
