"""Input shapes (validated by the services) and response shapes, for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers


class RoomCreateIn(serializers.Serializer):  # type: ignore[misc]
    game = serializers.CharField(help_text="a game slug from GET /api/games/")
    options = serializers.JSONField(required=False, help_text="game options; players sets the seats")
    rated = serializers.BooleanField(required=False, help_text="the result changes the players' ratings")


class SeatOut(serializers.Serializer):  # type: ignore[misc]
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    name = serializers.CharField(allow_null=True, help_text="the display name, or the username")
    resigned = serializers.BooleanField(required=False, help_text="match players only: resigned, an AI plays on")
    bot = serializers.CharField(allow_null=True)


class RoomOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    game = serializers.CharField()
    options = serializers.JSONField()
    status = serializers.ChoiceField(choices=["open", "playing", "closed"])
    code = serializers.CharField()
    host = serializers.CharField()
    seats = SeatOut(many=True)
    match = serializers.IntegerField(allow_null=True)
    rematch = serializers.JSONField(
        allow_null=True, help_text="{offered_by, accepted, waiting_for, expires_at} on offer, or {declined_by}"
    )
    watchers = serializers.IntegerField(help_text="people with the room open and no seat at it")
    created_at = serializers.DateTimeField()


class MatchSummaryOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    to_move = serializers.ListField(child=serializers.IntegerField(), help_text="seats to move; empty when over")
    room = serializers.IntegerField()
    game = serializers.CharField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["active", "finished", "aborted"])
    players = SeatOut(many=True)
    version = serializers.IntegerField()
    result = serializers.JSONField(allow_null=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MatchOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    room = serializers.IntegerField()
    game = serializers.CharField()
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["active", "finished", "aborted"])
    players = SeatOut(many=True)
    seat = serializers.IntegerField(allow_null=True, help_text="the requester's seat, null for a spectator")
    version = serializers.IntegerField()
    state = serializers.JSONField(help_text="the engine's view for the requester")
    to_move = serializers.ListField(child=serializers.IntegerField())
    legal_moves = serializers.ListField(child=serializers.CharField())
    result = serializers.JSONField(allow_null=True)
    turn_deadline = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class MoveIn(serializers.Serializer):  # type: ignore[misc]
    move = serializers.CharField(help_text="the move in the game's notation, e.g. 4 for Connect Four")
    version = serializers.IntegerField(help_text="the match version the move was made on")


class MoveOut(serializers.Serializer):  # type: ignore[misc]
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    move = serializers.CharField()
    text = serializers.CharField(help_text="the move in words")
    made_by = serializers.ChoiceField(choices=["player", "bot", "timeout", "solver"])
    created_at = serializers.DateTimeField()


class PositionOut(serializers.Serializer):  # type: ignore[misc]
    ply = serializers.IntegerField()
    plies = serializers.IntegerField()
    state = serializers.JSONField()


class ChatIn(serializers.Serializer):  # type: ignore[misc]
    text = serializers.CharField(max_length=500)


class ChatOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    username = serializers.CharField()
    text = serializers.CharField()
    created_at = serializers.DateTimeField()


class GameOut(serializers.Serializer):  # type: ignore[misc]
    slug = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    player_counts = serializers.ListField(child=serializers.IntegerField(), help_text="the seat counts allowed")
    options = serializers.JSONField()
    bots = serializers.ListField(child=serializers.CharField(), help_text="the AI levels, by name")
    ai_levels = serializers.ListField(
        child=serializers.JSONField(), help_text="each AI level, weakest first: {name, description}"
    )


class AnalysisOut(serializers.Serializer):  # type: ignore[misc]
    match = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["queued", "running", "done", "failed"])
    plies = serializers.IntegerField(help_text="positions to analyse (moves + 1)")
    done = serializers.IntegerField(help_text="positions analysed so far")
    positions = serializers.ListField(
        child=serializers.JSONField(),
        help_text="once done, per position: {analysis: what the game says of it (null: nothing), "
        "move: what the move leading to it did (e.g. {blunder: true})}",
    )
    error = serializers.CharField(allow_null=True)
