"""Quick pairing over the REST API: /api/seeks/."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, body, page_of, paginated
from core import throttle

from . import selectors, services
from .models import Seek


class SeekIn(serializers.Serializer):  # type: ignore[misc]
    game = serializers.CharField(help_text="a game slug with ratings (not Sokoban)")
    players = serializers.IntegerField(required=False, help_text="seats; the game's smallest count by default")
    options = serializers.JSONField(required=False, help_text="room options (turn_seconds, the game's own)")
    rated = serializers.BooleanField(required=False, default=True)
    fill_with_ai_after = serializers.IntegerField(
        required=False, allow_null=True, help_text="seconds after which AI seats fill the table (unrated then)"
    )


class SeekOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    pool = serializers.CharField()
    rated = serializers.BooleanField()
    options = serializers.JSONField()
    fill_with_ai_after = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=Seek.Status.values)
    reason = serializers.CharField(allow_null=True, help_text="why a cancelled seek ended: cancelled, expired, paired_elsewhere")
    room = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    waited = serializers.FloatField(help_text="seconds waited (until paired or cancelled)")


class SeekList(APIView):
    @extend_schema(
        responses={200: page_of(SeekOut), **ERRORS}, description="My seeks, newest first.", operation_id="seeks_list"
    )
    def get(self, request: Request) -> Response:
        # Polling keeps an API client's waiting seeks alive (no socket needed).
        services.seeks_seen(request.user.pk)
        return paginated(request, self, selectors.seeks_of(request.user), selectors.seek_json)

    @extend_schema(request=SeekIn, responses={201: SeekOut, **ERRORS})
    def post(self, request: Request) -> Response:
        throttle.hit_user("room", request.user.pk)
        data = body(request)
        seek = services.seek_create(
            user=request.user,
            game=data.get("game"),
            players=data.get("players"),
            options=data.get("options"),
            rated=data.get("rated", True),
            fill_with_ai_after=data.get("fill_with_ai_after"),
        )
        return Response(selectors.seek_json(seek), status=status.HTTP_201_CREATED)


class SeekDetail(APIView):
    @extend_schema(responses={200: SeekOut, **ERRORS})
    def get(self, request: Request, seek_id: int) -> Response:
        services.seeks_seen(request.user.pk)
        return Response(selectors.seek_json(get_object_or_404(Seek, pk=seek_id, user=request.user)))

    @extend_schema(responses={204: None, **ERRORS}, description="Cancel; 409 already_paired if it was paired first.")
    def delete(self, request: Request, seek_id: int) -> Response:
        services.seek_cancel(user=request.user, seek_id=seek_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
