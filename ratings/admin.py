from django.contrib import admin

from .models import Rating


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("user", "pool", "rating", "deviation", "games", "updated_at")
    list_filter = ("pool",)
    search_fields = ("user__username",)
    # Ratings change only by rated results; the admin shows them.
    readonly_fields = ("user", "pool", "rating", "deviation", "volatility", "games", "wins", "draws", "losses")
