from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Level(models.Model):
    """One level of a collection: the bundled Microban sets or players' uploads."""

    class Verified(models.TextChoices):
        SOLVABLE = "solvable"  # the solver found a solution
        UNVERIFIED = "unverified"  # the solver could not decide within its limit

    collection = models.CharField(max_length=60, db_index=True)
    number = models.PositiveIntegerField()
    title = models.CharField(max_length=120, blank=True)
    xsb = models.TextField()
    width = models.PositiveSmallIntegerField()
    height = models.PositiveSmallIntegerField()
    boxes = models.PositiveSmallIntegerField()
    verified = models.CharField(max_length=12, choices=Verified.choices, default=Verified.SOLVABLE)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="sokoban_levels"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["collection", "number"]
        constraints = [models.UniqueConstraint(fields=["collection", "number"], name="level_unique_number")]

    def __str__(self) -> str:
        return f"{self.collection} {self.number}"


class Progress(models.Model):
    """A player's solves of a level: their own, with the best of them, and those played with the solver.

    A solve with the solver (its answer played, or the level solved after the
    solver had shown the player its answer) is counted apart: it is not the
    player's own, and never their best.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sokoban_progress")
    level = models.ForeignKey(Level, on_delete=models.CASCADE, related_name="progress")
    # The best of the player's own solves; empty while they have none.
    best_moves = models.PositiveIntegerField(null=True, blank=True)
    best_pushes = models.PositiveIntegerField(null=True, blank=True)
    solves = models.PositiveIntegerField(default=1)  # their own
    solver_solves = models.PositiveIntegerField(default=0)
    first_solved_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "level"], name="progress_unique_level")]

    def __str__(self) -> str:
        return f"{self.user_id} solved {self.level_id}"


class SolveJob(models.Model):
    """A request to run the solver; a worker process runs it, progress is pushed."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        CANCELLED = "cancelled"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="solve_jobs")
    level = models.ForeignKey(Level, null=True, blank=True, on_delete=models.SET_NULL)
    xsb = models.TextField()
    algorithm = models.CharField(max_length=10)
    time_limit = models.FloatField()
    memory_limit_mb = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    # Cancelling is a flag, not a signal: the process running the job may be
    # another server than the one that took the cancel request.
    cancel_requested = models.BooleanField(default=False)
    expanded = models.PositiveBigIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # Touched every few seconds by the process running it (games/sokoban/jobs.py):
    # a running job untouched for longer lost its process.
    seen_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"solve {self.id} ({self.status})"
