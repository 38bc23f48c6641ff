"""Registration, login, logout and the current user, over the REST API."""

from __future__ import annotations

from django.contrib.auth import authenticate, logout, update_session_auth_hash
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERRORS, body
from core import throttle
from core.errors import Invalid
from games.engines.words import words

from . import serializers as s
from .models import ApiToken
from . import services


def _credentials(request: Request) -> tuple[str, str]:
    data = body(request)
    username, password = data.get("username"), data.get("password")
    if not isinstance(username, str) or not isinstance(password, str) or not username or not password:
        raise Invalid("invalid", words("username and password are required"))
    return username, password


class Register(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(request=s.RegisterIn, responses={201: s.RegisterOut, **ERRORS})
    def post(self, request: Request) -> Response:
        throttle.hit_address("register", request.META.get("REMOTE_ADDR"))
        username, password = _credentials(request)
        user, token = services.user_register(username=username, password=password)
        return Response(
            {"id": user.pk, "username": user.username, "token": token.key}, status=status.HTTP_201_CREATED
        )


class Login(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(request=s.RegisterIn, responses={200: s.LoginOut, **ERRORS})
    def post(self, request: Request) -> Response:
        username, password = _credentials(request)
        throttle.hit_login(request.META.get("REMOTE_ADDR"), username)
        user = authenticate(request._request, username=username, password=password)
        if user is None:
            raise Invalid("invalid_credentials", words("wrong username or password"))
        # A token per login: each device holds its own, and logging out of one leaves the others.
        token = services.token_create(user=user, name=str(body(request).get("device") or "login")[:60])
        return Response({"token": token.key, "username": user.username})


class Logout(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS})
    def post(self, request: Request) -> Response:
        # Logging out revokes the token the request came with (the player's
        # others stay); a browser's session ends.
        if isinstance(request.auth, ApiToken):
            services.token_revoke(user=request.user, token_id=request.auth.pk)
        logout(request._request)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _me(user: object) -> dict[str, object]:
    return {
        "id": user.pk,  # type: ignore[attr-defined]
        "username": user.username,  # type: ignore[attr-defined]
        "display_name": user.display_name,  # type: ignore[attr-defined]
        "preferences": user.preferences,  # type: ignore[attr-defined]
    }


class Me(APIView):
    @extend_schema(responses={200: s.MeOut, **ERRORS})
    def get(self, request: Request) -> Response:
        return Response(_me(request.user))

    @extend_schema(
        request=s.MeIn,
        responses={200: s.MeOut, **ERRORS},
        description="Settings: display_name, and preferences volume (0-100), default_turn_seconds and language "
        "(\"en\" or \"ko\"; it wins over the browser's; null: the browser's again).",
    )
    def patch(self, request: Request) -> Response:
        data = body(request)
        user = services.user_update(
            user=request.user, display_name=data.get("display_name"), preferences=data.get("preferences")
        )
        return Response(_me(user))




class PasswordChange(APIView):
    @extend_schema(
        request=s.PasswordIn,
        responses={204: None, **ERRORS},
        description="Change the password: old_password and new_password (checked by the same rules as at "
        "registration: 400 invalid with the reasons). This session stays logged in; others end.",
    )
    def post(self, request: Request) -> Response:
        data = body(request)
        services.password_change(
            user=request.user, old_password=data.get("old_password"), new_password=data.get("new_password")
        )
        update_session_auth_hash(request._request, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _token_json(token: ApiToken, current: object) -> dict[str, object]:
    return {
        "id": token.pk,
        "name": token.name,
        "created_at": token.created_at.isoformat(),
        "last_used": token.last_used.isoformat() if token.last_used else None,
        # The token this very request came with.
        "current": isinstance(current, ApiToken) and current.pk == token.pk,
    }


class Tokens(APIView):
    @extend_schema(
        responses={200: s.TokenOut(many=True), **ERRORS},
        description="The player's API tokens, newest first (never their keys).",
    )
    def get(self, request: Request) -> Response:
        return Response([_token_json(t, request.auth) for t in request.user.api_tokens.all()])

    @extend_schema(
        request=s.TokenIn,
        responses={201: s.TokenCreated, **ERRORS},
        description="A new token (for a bot, a script, a device): its key is in this answer only.",
    )
    def post(self, request: Request) -> Response:
        token = services.token_create(user=request.user, name=body(request).get("name", ""))
        return Response({**_token_json(token, None), "key": token.key}, status=status.HTTP_201_CREATED)


class TokenDetail(APIView):
    @extend_schema(request=None, responses={204: None, **ERRORS}, description="Revoke one of your tokens.")
    def delete(self, request: Request, token_id: int) -> Response:
        services.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
