from django.contrib import admin

from .models import Level, Progress, SolveJob


@admin.register(Level)
class LevelAdmin(admin.ModelAdmin):
    list_display = ("collection", "number", "title", "width", "height", "boxes", "verified", "uploaded_by")
    list_filter = ("collection", "verified")


@admin.register(Progress)
class ProgressAdmin(admin.ModelAdmin):
    list_display = ("user", "level", "best_moves", "best_pushes", "solves", "updated_at")


@admin.register(SolveJob)
class SolveJobAdmin(admin.ModelAdmin):
    list_display = ("id", "user", "algorithm", "status", "expanded", "created_at", "finished_at")
    list_filter = ("status", "algorithm")
