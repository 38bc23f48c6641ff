from django.urls import path

from . import records, views

urlpatterns = [
    path("games/", views.GameList.as_view(), name="game-list"),
    path("rooms/", views.RoomList.as_view(), name="room-list"),
    path("rooms/<int:room_id>/", views.RoomDetail.as_view(), name="room-detail"),
    path("rooms/<int:room_id>/join/", views.RoomJoin.as_view(), name="room-join"),
    path("rooms/<int:room_id>/leave/", views.RoomLeave.as_view(), name="room-leave"),
    path("rooms/<int:room_id>/start/", views.RoomStart.as_view(), name="room-start"),
    path("rooms/<int:room_id>/rematch/", views.RoomRematch.as_view(), name="room-rematch"),
    path("rooms/<int:room_id>/rematch/decline/", views.RoomRematchDecline.as_view(), name="room-rematch-decline"),
    path("rooms/<int:room_id>/chat/", views.RoomChat.as_view(), name="room-chat"),
    path("matches/", views.MatchList.as_view(), name="match-list"),
    path("matches/<int:match_id>/", views.MatchDetail.as_view(), name="match-detail"),
    path("matches/<int:match_id>/moves/", views.MatchMoves.as_view(), name="match-moves"),
    path("matches/<int:match_id>/positions/<int:ply>/", views.MatchPosition.as_view(), name="match-position"),
    path("matches/<int:match_id>/resign/", views.MatchResign.as_view(), name="match-resign"),
    path("matches/<int:match_id>/claim/", views.MatchClaim.as_view(), name="match-claim"),
    path("matches/<int:match_id>/analysis/", views.MatchAnalysis.as_view(), name="match-analysis"),
    path("matches/<int:match_id>/record/", records.MatchRecord.as_view(), name="match-record"),
    path("players/<str:username>/records/", records.PlayerRecords.as_view(), name="player-records"),
    path("records/", records.ReadRecords.as_view(), name="records"),
]
