from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    # Browsers and tools ask for /favicon.ico whatever the pages link to.
    path("favicon.ico", views.favicon, name="favicon"),
    path("login/", views.login_page, name="login"),
    path("register/", views.register_page, name="register"),
    path("logout/", views.logout_page, name="logout"),
    path("rooms/<int:room_id>/", views.room_page, name="room"),
    path("matches/<int:match_id>/replay/", views.replay_page, name="replay"),
    path("settings/", views.settings_page, name="settings"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("leaderboard/<str:pool>/", views.leaderboard_page, name="leaderboard-pool"),
    path("players/<str:username>/", views.player_page, name="player"),
    path("games/<slug:slug>/rules/", views.rules_page, name="rules"),
]
