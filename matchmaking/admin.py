from django.contrib import admin

from .models import Seek


@admin.register(Seek)
class SeekAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "pool", "rated", "status", "reason", "created_at", "last_seen")
    list_filter = ("pool", "status")
    search_fields = ("user__username",)
    readonly_fields = ("user", "game", "players", "pool", "options", "options_key", "room", "match")
