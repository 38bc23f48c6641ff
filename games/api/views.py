"""Thin DRF views: read the request, call a service or a selector, shape the answer."""

from __future__ import annotations

from typing import Any

from django.views.decorators.csrf import csrf_exempt
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, body, page_of, paginated
from core import throttle
from core.errors import Invalid, NotFound
from core.i18n import translate
from games import selectors, services
from games.analysis import analysis_for, analysis_json
from games.engines.words import words
from games.models import Analysis, Match, Room

from . import serializers as s


class GameList(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.GameOut(many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.catalogue())


class RoomList(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, description="a game slug"),
            OpenApiParameter("status", str, enum=["open", "playing", "closed"]),
            OpenApiParameter("code", str, description="a room code, as players share it (any case)"),
        ],
        responses={200: page_of(s.RoomOut), **ERRORS},
        operation_id="rooms_list",
    )
    def get(self, request: Request) -> Response:
        status_filter = request.query_params.get("status")
        if status_filter and status_filter not in Room.Status.values:
            raise Invalid("invalid", words("status must be one of %(choices)s", choices=", ".join(Room.Status.values)))
        params = request.query_params
        rooms = selectors.rooms_for_lobby(game=params.get("game"), status=status_filter, code=params.get("code"))
        return paginated(request, self, rooms, selectors.room_detail, prepare=selectors.prepare_lobby)

    @extend_schema(request=s.RoomCreateIn, responses={201: s.RoomOut, **ERRORS})
    def post(self, request: Request) -> Response:
        throttle.hit_user("room", request.user.pk)
        data = body(request)
        room = services.room_create(
            user=request.user, game=data.get("game"), options=data.get("options"), rated=data.get("rated")
        )
        return Response(selectors.room_detail(room), status=status.HTTP_201_CREATED)


class RoomDetail(APIView):
    @extend_schema(responses={200: s.RoomOut, **ERRORS})
    def get(self, request: Request, room_id: int) -> Response:
        return Response(selectors.room_detail(get_object_or_404(Room, pk=room_id)))


class RoomJoin(APIView):
    @extend_schema(request=None, responses={200: s.RoomOut, **ERRORS})
    def post(self, request: Request, room_id: int) -> Response:
        room = services.room_join(user=request.user, room_id=room_id)
        return Response(selectors.room_detail(Room.objects.get(pk=room.pk)))


class RoomLeave(APIView):
    @extend_schema(request=None, responses={200: s.RoomOut, **ERRORS})
    def post(self, request: Request, room_id: int) -> Response:
        room = services.room_leave(user=request.user, room_id=room_id)
        return Response(selectors.room_detail(Room.objects.get(pk=room.pk)))


class RoomRematch(APIView):
    @extend_schema(
        request=None,
        responses={201: s.MatchOut, 202: s.RoomOut, **ERRORS},
        description="Offer a rematch, or accept the one on offer: 201 with the new match once every "
        "person seated has accepted (at once against AI seats), else 202 with the room and its offer.",
    )
    def post(self, request: Request, room_id: int) -> Response:
        throttle.hit_user("room", request.user.pk)
        result = services.room_rematch(user=request.user, room_id=room_id)
        if isinstance(result, Match):
            return Response(_view(result, request), status=status.HTTP_201_CREATED)
        return Response(selectors.room_detail(result), status=status.HTTP_202_ACCEPTED)


class RoomRematchDecline(APIView):
    @extend_schema(request=None, responses={200: s.RoomOut, **ERRORS})
    def post(self, request: Request, room_id: int) -> Response:
        room = services.room_rematch_decline(user=request.user, room_id=room_id)
        return Response(selectors.room_detail(room))


class RoomStart(APIView):
    @extend_schema(
        request=None,
        responses={201: s.MatchOut, **ERRORS},
        description="The host starts the room now; free seats become AI seats of the room's `ai` level.",
    )
    def post(self, request: Request, room_id: int) -> Response:
        match = services.room_start(user=request.user, room_id=room_id)
        return Response(_view(match, request), status=status.HTTP_201_CREATED)


class RoomChat(APIView):
    @extend_schema(responses={200: s.ChatOut(many=True), **ERRORS})
    def get(self, request: Request, room_id: int) -> Response:
        return Response(selectors.chat_for(get_object_or_404(Room, pk=room_id)))

    @extend_schema(request=s.ChatIn, responses={201: s.ChatOut, **ERRORS})
    def post(self, request: Request, room_id: int) -> Response:
        throttle.hit_user("chat", request.user.pk)
        message = services.chat_post(user=request.user, room_id=room_id, text=body(request).get("text"))
        return Response(selectors.chat_json(message), status=status.HTTP_201_CREATED)


class MatchList(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("player", str, description="`me`, or a username"),
            OpenApiParameter("status", str, enum=["active", "finished", "aborted"]),
            OpenApiParameter("game", str, description="a game slug"),
        ],
        responses={200: page_of(s.MatchSummaryOut), **ERRORS},
        operation_id="matches_list",
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        status_filter = params.get("status")
        if status_filter and status_filter not in Match.Status.values:
            raise Invalid("invalid", words("status must be one of %(choices)s", choices=", ".join(Match.Status.values)))
        player = params.get("player")
        user: Any = None
        if player == "me":
            user = request.user
        elif player:
            from accounts.models import User

            user = User.objects.filter(username=player).first()
            if user is None:
                raise NotFound("not_found", words("there is no player %(player)r", player=player))
        matches = selectors.matches_for(user=user, status=status_filter, game=params.get("game"))
        return paginated(request, self, matches, selectors.match_summary)


def _match(match_id: int) -> Match:
    return get_object_or_404(Match.objects.select_related("room"), pk=match_id)


def _detail(match_id: int, request: Request) -> dict[str, Any]:
    return _view(_match(match_id), request)


def _view(match: Match, request: Request) -> dict[str, Any]:
    """The requester's view of ``match``; a match a write just returned is not read again."""
    return selectors.match_detail(match, selectors.viewer_seat(match, request.user))


class MatchDetail(APIView):
    @extend_schema(responses={200: s.MatchOut, **ERRORS})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(_detail(match_id, request))


class MatchMoves(APIView):
    @extend_schema(responses={200: s.MoveOut(many=True), **ERRORS})
    def get(self, request: Request, match_id: int) -> Response:
        return Response(selectors.move_list(_match(match_id)))

    @extend_schema(request=s.MoveIn, responses={201: s.MatchOut, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        throttle.hit_user("move", request.user.pk)
        data = body(request)
        if "version" not in data:
            raise Invalid("invalid", words("version is required: send the match version you last saw"))
        match = services.move_make(user=request.user, match_id=match_id, move=data.get("move"), version=data["version"])
        return Response(_view(match, request), status=status.HTTP_201_CREATED)


class MatchPosition(APIView):
    @extend_schema(responses={200: s.PositionOut, **ERRORS})
    def get(self, request: Request, match_id: int, ply: int) -> Response:
        match = _match(match_id)
        plies = match.plies
        if ply > plies:
            raise NotFound(
                "not_found", words("the match has %(plies)s moves; there is no position after ply %(ply)s", plies=plies, ply=ply)
            )
        engine = selectors.engine_for(match.room.game)
        state = selectors.state_after(match, ply)
        seat = selectors.viewer_seat(match, request.user)
        return Response({"ply": ply, "plies": plies, "state": engine.view(state, seat)})


class MatchClaim(APIView):
    @extend_schema(
        request=None,
        responses={200: s.MatchOut, **ERRORS},
        description="In an untimed game, claim against the player to move once they have been away "
        "for a minute: a two-seat game is won (aborted if fewer than two moves were made); in a larger "
        "one an AI takes their seat.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = services.match_claim(user=request.user, match_id=match_id)
        return Response(_view(match, request))


class MatchAnalysis(APIView):
    @extend_schema(
        responses={200: s.AnalysisOut, 202: s.AnalysisOut, **ERRORS},
        description="A finished match's review, one entry per position (0 = the start): 200 once done; "
        "202 while it is queued or running (the first request queues it; progress comes on the room "
        "socket as {type: analysis}). 409 match_not_over for a match still in play.",
    )
    def get(self, request: Request, match_id: int) -> Response:
        analysis = analysis_for(match_id=match_id)
        done = analysis.status in (Analysis.Status.DONE, Analysis.Status.FAILED)
        return Response(analysis_json(analysis), status=status.HTTP_200_OK if done else status.HTTP_202_ACCEPTED)


class MatchResign(APIView):
    @extend_schema(request=None, responses={200: s.MatchOut, **ERRORS})
    def post(self, request: Request, match_id: int) -> Response:
        match = services.match_resign(user=request.user, match_id=match_id)
        return Response(_view(match, request))


@csrf_exempt  # a POST with a session cookie to a typo is a 404, not a CSRF 403 page
def api_not_found(request: HttpRequest) -> JsonResponse:
    path = request.path
    if path.endswith("/"):
        detail = words("there is no API endpoint %(path)s", path=path)
    else:
        detail = words("there is no API endpoint %(path)s; did you mean %(path)s/ ?", path=path)
    return JsonResponse({"code": "not_found", "detail": translate(detail)}, status=404)
