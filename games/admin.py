from django.contrib import admin

from .models import ChatMessage, Match, Move, Player, Room, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Room)
class RoomAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "host", "code", "created_at")
    list_filter = ("game", "status")
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ("room", "index", "user", "bot")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "room", "number", "status", "version", "created_at", "finished_at")
    list_filter = ("status",)
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "user", "bot")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "notation", "created_at")

    # The log is the truth: the admin may read it, never rewrite it.
    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("room", "user", "text", "created_at")
