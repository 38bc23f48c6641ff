"""/api/sokoban/: level collections, uploads, progress and solve jobs."""

from __future__ import annotations

import uuid
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, body, page_of, paginated
from core import throttle
from core.errors import Invalid, NotFound
from games.engines.words import words
from games.selectors import match_detail, seat_of

from . import selectors, services
from .models import Level, SolveJob

class LevelOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    collection = serializers.CharField()
    number = serializers.IntegerField()
    title = serializers.CharField()
    width = serializers.IntegerField()
    height = serializers.IntegerField()
    boxes = serializers.IntegerField()
    verified = serializers.ChoiceField(choices=["solvable", "unverified"])
    uploaded_by = serializers.CharField(allow_null=True)
    solved = serializers.BooleanField(help_text="solved by the player's own hand")
    solved_with_solver = serializers.BooleanField(help_text="solved with the solver's answer (not counted as solved)")
    best_moves = serializers.IntegerField(allow_null=True)
    best_pushes = serializers.IntegerField(allow_null=True)
    xsb = serializers.CharField()


class JobOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "cancelled", "failed"])
    algorithm = serializers.CharField()
    level = serializers.IntegerField(allow_null=True)
    time_limit = serializers.FloatField()
    expanded = serializers.IntegerField()
    result = serializers.JSONField(
        allow_null=True, help_text="solved, status, solution (LURD), moves, pushes, expanded, seconds, optimal"
    )
    error = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


def _with_progress(request: Request, page: list[Level]) -> list[dict[str, Any]]:
    progress = selectors.progress_by_level(request.user, [level.pk for level in page])
    return [selectors.level_json(level, progress.get(level.pk)) for level in page]


class Levels(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("collection", str, description="e.g. Microban, Microban II, Uploads")],
        responses={200: page_of(LevelOut), **ERRORS},
        operation_id="sokoban_levels_list",
    )
    def get(self, request: Request) -> Response:
        found = selectors.levels(request.query_params.get("collection"))
        response = paginated(request, self, found, lambda level: level)
        response.data["results"] = _with_progress(request, response.data["results"])
        return response

    @extend_schema(
        request=inline_serializer("LevelUpload", {"text": serializers.CharField(), "title": serializers.CharField(required=False)}),
        responses={201: LevelOut(many=True), **ERRORS},
        description="Upload one level or a collection, in XSB or the numeric format. Each level is checked; "
        "one the solver proves unsolvable is refused, one it cannot decide quickly is stored as unverified.",
    )
    def post(self, request: Request) -> Response:
        throttle.hit_user("upload", request.user.pk)
        data = body(request)
        stored = services.level_upload(user=request.user, text=data.get("text"), title=data.get("title"))
        return Response([selectors.level_json(level) for level in stored], status=status.HTTP_201_CREATED)


class LevelDetail(APIView):
    @extend_schema(responses={200: LevelOut, **ERRORS})
    def get(self, request: Request, level_id: int) -> Response:
        level = Level.objects.select_related("uploaded_by").filter(pk=level_id).first()
        if level is None:
            raise NotFound("not_found", words("there is no level %(level)s", level=level_id))
        return Response(_with_progress(request, [level])[0])


class Collections(APIView):
    @extend_schema(responses={200: inline_serializer("Collection", {
        "name": serializers.CharField(), "levels": serializers.IntegerField(), "solved": serializers.IntegerField()},
        many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.collections(request.user))


class Solve(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=["queued", "running", "done", "cancelled", "failed"])],
        responses={200: JobOut(many=True), **ERRORS},
        description="My solves, newest first (at most 50).",
    )
    def get(self, request: Request) -> Response:
        mine = SolveJob.objects.filter(user=request.user).order_by("-created_at")
        wanted = request.query_params.get("status")
        if wanted:
            if wanted not in SolveJob.Status.values:
                raise Invalid("invalid", words("status must be one of %(choices)s", choices=", ".join(SolveJob.Status.values)))
            mine = mine.filter(status=wanted)
        return Response([selectors.job_json(job) for job in mine[:50]])

    @extend_schema(
        request=inline_serializer("SolveIn", {
            "level": serializers.CharField(required=False, help_text="level text (XSB or numeric)"),
            "level_id": serializers.IntegerField(required=False),
            "algorithm": serializers.ChoiceField(choices=["best", "astar", "greedy", "bfs", "dfs"], required=False),
            "time_limit": serializers.FloatField(required=False, help_text="seconds, at most 60; default 30"),
        }),
        responses={201: JobOut, **ERRORS},
        description="Starts a solve; progress and the result arrive over the WebSocket as "
        '{"type": "solve", "job": ...} and at GET /api/sokoban/solve/{job}/.',
    )
    def post(self, request: Request) -> Response:
        throttle.hit_user("solve", request.user.pk)
        data = body(request)
        job = services.solve_start(
            user=request.user,
            level=data.get("level"),
            level_id=data.get("level_id"),
            algorithm=data.get("algorithm"),
            time_limit=data.get("time_limit"),
        )
        return Response(selectors.job_json(job), status=status.HTTP_201_CREATED)


def _job(request: Request, job_id: str) -> SolveJob:
    try:
        key = uuid.UUID(job_id)
    except ValueError:
        raise NotFound("not_found", words("there is no solve %(job)s", job=job_id)) from None
    job = SolveJob.objects.filter(pk=key, user=request.user).first()
    if job is None:
        raise NotFound("not_found", words("there is no solve %(job)s of yours", job=job_id))
    return job


class SolveDetail(APIView):
    @extend_schema(responses={200: JobOut, **ERRORS})
    def get(self, request: Request, job_id: str) -> Response:
        return Response(selectors.job_json(_job(request, job_id)))


class SolveCancel(APIView):
    @extend_schema(request=None, responses={200: JobOut, **ERRORS})
    def post(self, request: Request, job_id: str) -> Response:
        job = services.solve_cancel(user=request.user, job_id=_job(request, job_id).pk)
        return Response(selectors.job_json(job))


class SolveStep(APIView):
    @extend_schema(
        request=inline_serializer("SolveStepIn", {
            "match": serializers.IntegerField(help_text="your Sokoban match on this solve's level"),
            "version": serializers.IntegerField(help_text="the match version you last saw"),
        }),
        responses={201: OpenApiTypes.OBJECT, **ERRORS},
        description="Play the next move of this solve's answer in your match, on your behalf: the next "
        "letter while the path so far is the start of the solution, else `reset`. The move is logged as "
        "made by the solver (`made_by: solver`), and a level solved so is marked solved with the solver, "
        "never as your own solve or your best. 201 with the match detail, as a move's answer.",
    )
    def post(self, request: Request, job_id: str) -> Response:
        data = body(request)
        if "version" not in data:
            raise Invalid("invalid", words("version is required: send the match version you last saw"))
        job = _job(request, job_id)
        match = services.solution_step(
            user=request.user, job_id=job.pk, match_id=data.get("match"), version=data["version"]
        )
        return Response(match_detail(match, seat_of(match, request.user)), status=status.HTTP_201_CREATED)
