from django.contrib import admin

from .models import ChatMessage, Match, Move, Player, Room, RoomSocket, Seat


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
    # The snapshot holds every hand and the deck, and the seed derives them:
    # staff who also play must not read them. The log, not the admin, changes a match.
    exclude = ("snapshot", "seed")
    readonly_fields = ("room", "number", "status", "version", "result", "snapshot_version", "turn_deadline",
                       "bot_turn", "finished_at")


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "user", "bot")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("match", "ply", "seat", "notation", "created_at")

    # The log is the truth: the admin may read it, never add to it, change or delete it.
    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("room", "user", "text", "created_at")


@admin.register(RoomSocket)
class RoomSocketAdmin(admin.ModelAdmin):
    list_display = ("room", "user", "channel", "seen_at")
