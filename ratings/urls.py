from django.urls import path

from . import api

urlpatterns = [
    path("players/<str:username>/", api.PlayerDetail.as_view(), name="player-detail"),
    path("players/<str:username>/matches/", api.PlayerMatches.as_view(), name="player-matches"),
    path("players/<str:username>/ratings/<str:pool>/", api.PlayerRatingHistory.as_view(), name="player-ratings"),
    path("leaderboards/<str:pool>/", api.Leaderboard.as_view(), name="leaderboard"),
]
