from django.urls import path

from . import api

urlpatterns = [
    path("register/", api.Register.as_view(), name="api-register"),
    path("login/", api.Login.as_view(), name="api-login"),
    path("logout/", api.Logout.as_view(), name="api-logout"),
    path("me/", api.Me.as_view(), name="api-me"),
    path("password/", api.PasswordChange.as_view(), name="api-password"),
    path("tokens/", api.Tokens.as_view(), name="api-tokens"),
    path("tokens/<int:token_id>/", api.TokenDetail.as_view(), name="api-token"),
]
