"""Players' pages and leaderboards over the REST API."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, page_of, paginated
from games import selectors as game_selectors
from games.api.serializers import MatchSummaryOut
from games.models import Match

from . import selectors


class RatingOut(serializers.Serializer):  # type: ignore[misc]
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text="true while the deviation is 110 or more")


class PlayerOut(serializers.Serializer):  # type: ignore[misc]
    username = serializers.CharField()
    display_name = serializers.CharField()
    joined = serializers.DateTimeField()
    ratings = serializers.DictField(child=RatingOut(), help_text="pool -> rating")
    record = serializers.DictField(child=serializers.DictField(child=serializers.IntegerField()),
                                   help_text="pool -> {win, draw, loss} of rated games")


class HistoryOut(serializers.Serializer):  # type: ignore[misc]
    match = serializers.IntegerField()
    at = serializers.DateTimeField()
    before = serializers.IntegerField(allow_null=True, help_text="the rating the player came to the match with")
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()


class LeaderOut(RatingOut):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()


class PlayerDetail(APIView):
    @extend_schema(responses={200: PlayerOut, **ERRORS})
    def get(self, request: Request, username: str) -> Response:
        return Response(selectors.player_profile(selectors.player_named(username)))


class PlayerMatches(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("game", str, description="a game slug")],
        responses={200: page_of(MatchSummaryOut), **ERRORS},
        operation_id="players_matches_list",
        description="The player's finished matches, newest first.",
    )
    def get(self, request: Request, username: str) -> Response:
        user = selectors.player_named(username)
        matches = game_selectors.matches_for(
            user=user, status=Match.Status.FINISHED, game=request.query_params.get("game")
        ).order_by("-finished_at", "-id")
        return paginated(request, self, matches, game_selectors.match_summary)


class PlayerRatingHistory(APIView):
    @extend_schema(responses={200: HistoryOut(many=True), **ERRORS})
    def get(self, request: Request, username: str, pool: str) -> Response:
        return Response(selectors.rating_history(selectors.player_named(username), pool))


class Leaderboard(APIView):
    @extend_schema(responses={200: LeaderOut(many=True), **ERRORS}, description="The top 100 established ratings.")
    def get(self, request: Request, pool: str) -> Response:
        return Response(selectors.leaderboard(pool))
