"""Rooms, seats, matches and their move logs.

A Room is the table players gather at; it outlives its matches. A Match is
one game played at it. The Move rows are the truth: a match's state is the
replay of its moves from the room's options and the match's seed, and
``Match.snapshot`` is only a cache of that replay.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

ROOM_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I lookalikes


def new_room_code() -> str:
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(6))


def new_seed() -> int:
    return secrets.randbits(62)


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        PLAYING = "playing"
        CLOSED = "closed"

    game = models.CharField(max_length=40, db_index=True)
    # Normalised by the engine when the room is created: every option present.
    options = models.JSONField(default=dict)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_rooms")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    code = models.CharField(max_length=8, unique=True, default=new_room_code)
    # The rating pool of its game at its seat count ("" where there is none).
    pool = models.CharField(max_length=40, blank=True, default="", db_index=True)
    # A rematch on offer after a match ended: {"by": user id, "accepted":
    # [user ids], "expires_at": iso time}; or the last answer to one:
    # {"declined_by": user id}. Null when nothing is on offer.
    rematch = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game} room {self.pk} ({self.status})"

    @property
    def players(self) -> int:
        return int(self.options.get("players", 1))


class Seat(models.Model):
    """A chair at the table. ``user`` is empty while the seat is free (or an AI plays it)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    # An AI level ("random", "strong", ...) when a bot holds the seat.
    bot = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="seat_unique_index"),
            # One person, one chair per table: the API refuses "joining twice"
            # and this makes a racing double join fail in the database too.
            models.UniqueConstraint(
                fields=["room", "user"], condition=Q(user__isnull=False), name="seat_unique_user"
            ),
        ]

    def __str__(self) -> str:
        return f"room {self.room_id} seat {self.index}"


class Match(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active"
        FINISHED = "finished"
        ABORTED = "aborted"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    seed = models.BigIntegerField(default=new_seed)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE, db_index=True)
    # Bumped by every write; clients send the version they saw, so a move
    # made on a stale picture of the board is refused (409 stale_version).
    version = models.PositiveIntegerField(default=0)
    # Moves in the log; the next move is ply ``plies + 1``. Kept beside the
    # log (in the same transaction) so a move need not count the log.
    plies = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    # Cache of the engine's serialised state after the last move.
    snapshot = models.JSONField(null=True, blank=True)
    snapshot_version = models.PositiveIntegerField(default=0)
    # When the seat to move runs out of time (room option turn_seconds); the
    # scheduler then plays a random legal move for it.
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # True while a bot is to move, so the scheduler finds its work with one
    # indexed query instead of replaying every active match.
    bot_turn = models.BooleanField(default=False, db_index=True)
    # Counts for the players' ratings: the room asked for it and every seat
    # was a person when the match began.
    rated = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="match_unique_number"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.room.game} room {self.room_id} #{self.number})"

    @property
    def game(self) -> str:
        return self.room.game


class Player(models.Model):
    """Who plays engine seat ``seat`` in a match.

    Separate from the room's Seat because a rematch hands the first move to the
    next chair: match 2's seat 0 is the room's seat 1.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="plays"
    )
    bot = models.CharField(max_length=20, blank=True)
    # Resigned from a game of three or more while others played on: an AI
    # took the seat over (``bot``), and the seat's result is a loss.
    resigned = models.BooleanField(default=False)
    # The person's rating in the room's pool when the match began (shown
    # beside their name), and after it, where it was rated.
    rating = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    deviation_after = models.FloatField(null=True, blank=True)
    # How the seat finished: win / draw / loss and its place (1 = first).
    result = models.CharField(max_length=4, blank=True, default="")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # Turns in a row that ran out with the player away; at two the seat is
    # abandoned (a two-seat game ends, an AI takes a seat of a larger one).
    timeouts_in_a_row = models.PositiveSmallIntegerField(default=0)
    abandoned = models.BooleanField(default=False)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="player_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.seat}"


class Move(models.Model):
    """One entry of a match's move log. Append-only: never updated, never deleted alone."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    class MadeBy(models.TextChoices):
        PLAYER = "player"
        BOT = "bot"
        TIMEOUT = "timeout"  # a random legal move made when the seat's time ran out
        SOLVER = "solver"  # played from a solver's solution on the player's behalf (Sokoban)

    notation = models.CharField(max_length=64)
    # The move in words, for the game log ("East built a 2-storey piece ...").
    text = models.CharField(max_length=200, blank=True)
    # The same words as template and args ({"text", "args"}, games/engines/words.py),
    # for a page to say them in its own language; {} where the engine wrote plain text.
    words = models.JSONField(default=dict, blank=True)
    made_by = models.CharField(max_length=10, choices=MadeBy.choices, default=MadeBy.PLAYER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [
            # The last line of defence against two writers appending the same ply.
            models.UniqueConstraint(fields=["match", "ply"], name="move_unique_ply"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} ply {self.ply}: {self.notation}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise ValueError("moves are append-only")
        super().save(*args, **kwargs)


class RoomSocket(models.Model):
    """An open socket on a room, one row each: who is watching, across server processes.

    The socket adds its row when it opens, touches it every PRESENCE_SECONDS
    and deletes it when it closes; a row not touched for a while belongs to a
    process that died, and is not counted (games.watchers). Moves never read
    this table: the count is taken only when a socket comes or goes.
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="sockets")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="room_sockets")
    channel = models.CharField(max_length=200, unique=True)  # the socket's channel name
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["room", "seen_at"], name="roomsocket_room_seen")]

    def __str__(self) -> str:
        return f"room {self.room_id}: user {self.user_id}"


class ChatMessage(models.Model):
    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"room {self.room_id}: {self.user_id}: {self.text[:30]}"


class Analysis(models.Model):
    """A finished match's review, computed once in the background and kept.

    ``positions`` has one entry per position (ply 0 = the start): what the
    engine could say of it within its budget, and of the move that led to it.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True)
    plies = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    positions = models.JSONField(default=list)
    error = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"
