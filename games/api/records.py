"""Game records over the API: a match or a player's history as text, and text read back.

The record format and what it may reveal are in games.records.
"""

from __future__ import annotations

from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from core.api import ERRORS
from core.errors import Invalid, NotFound
from games import records
from games.engines.words import words
from games.models import Match

TEXT = "text/plain; charset=utf-8"


def _attachment(response: HttpResponse | StreamingHttpResponse, filename: str) -> HttpResponse | StreamingHttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class MatchRecord(APIView):
    @extend_schema(
        responses={(200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="the record"), **ERRORS},
        description="The match as a PGN-like text record: headers (game, players, date, result, options), "
        "then its moves in the game's notation. The Seed, which deals Manhattan's hands, is written only "
        "once the match is over.",
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = get_object_or_404(Match.objects.select_related("room"), pk=match_id)
        response = HttpResponse(records.match_record(match), content_type=TEXT)
        return _attachment(response, f"{match.room.game}-match-{match.pk}.txt")


class PlayerRecords(APIView):
    @extend_schema(
        responses={(200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="the records"), **ERRORS},
        description="Every game the player played to its end (finished or aborted), oldest first, as records "
        "one after another in one file.",
    )
    def get(self, request: Request, username: str) -> StreamingHttpResponse:
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            raise NotFound("not_found", words("there is no player %(player)r", player=username))
        # Streamed: a long history is written as it is read, a hundred games at a time.
        chunks = ("\n" + text if number else text for number, text in enumerate(records.player_records(user)))
        response = StreamingHttpResponse(chunks, content_type=TEXT)
        return _attachment(response, f"{user.username}-games.txt")


class ReadRecords(APIView):
    @extend_schema(
        request={
            "text/plain": OpenApiTypes.STR,
            "application/json": inline_serializer("RecordIn", {"record": serializers.CharField()}),
        },
        responses={
            200: inline_serializer("RecordsOut", {"records": serializers.ListField(child=serializers.JSONField())}),
            **ERRORS,
        },
        examples=[OpenApiExample("Connect Four", value={"record": '[Game "Connect Four"]\n\n1. 4 2. 4 3. 5 *'},
                                 request_only=True)],
        description="Read one or more records back: each is replayed through its game's rules from its "
        "options and seed, and answered as {game, headers, players, options, plies, outcome, positions}, "
        "positions being every ply's spectator view (0 = the start) with the move that led to it. "
        "400 with `record`, `ply` and `reason` for the first fault: a bad header (bad_header), an unknown "
        "game (unknown_game), bad options, or a move that does not parse or is illegal at ply N.",
    )
    def post(self, request: Request) -> Response:
        if (request.content_type or "").startswith("text/plain"):
            try:
                text = request.body.decode("utf-8")
            except UnicodeDecodeError:
                raise Invalid("bad_record", words("a record is UTF-8 text")) from None
        else:
            data = request.data
            text = data.get("record") if hasattr(data, "get") else None
        return Response({"records": records.read_records(text)})
