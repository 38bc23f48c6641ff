from django.urls import path

from . import api

urlpatterns = [
    path("levels/", api.Levels.as_view(), name="sokoban-levels"),
    path("levels/<int:level_id>/", api.LevelDetail.as_view(), name="sokoban-level"),
    path("collections/", api.Collections.as_view(), name="sokoban-collections"),
    path("solve/", api.Solve.as_view(), name="sokoban-solve"),
    path("solve/<str:job_id>/", api.SolveDetail.as_view(), name="sokoban-solve-detail"),
    path("solve/<str:job_id>/cancel/", api.SolveCancel.as_view(), name="sokoban-solve-cancel"),
    path("solve/<str:job_id>/step/", api.SolveStep.as_view(), name="sokoban-solve-step"),
]
