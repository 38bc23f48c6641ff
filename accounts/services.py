"""Account writes: registration and tokens."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from games.api.errors import ApiError

from .models import User

USERNAME_MAX = 30


def user_register(*, username: str, password: str) -> tuple[User, Token]:
    username = (username or "").strip()
    if not username:
        raise ApiError("invalid", "username is required")
    if len(username) > USERNAME_MAX or not all(c.isalnum() or c in "_-." for c in username):
        raise ApiError(
            "invalid",
            f"a username is 1..{USERNAME_MAX} letters, digits, '_', '-' or '.'",
        )
    if User.objects.filter(username__iexact=username).exists():
        raise ApiError("username_taken", f"the username {username!r} is taken", status=409)
    try:
        validate_password(password)
    except DjangoValidationError as error:
        raise ApiError("invalid", " ".join(error.messages)) from error
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
            token = Token.objects.create(user=user)
    except IntegrityError as error:  # two registrations of one name at once
        raise ApiError("username_taken", f"the username {username!r} is taken", status=409) from error
    return user, token


def token_for(*, user: User) -> Token:
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User) -> None:
    Token.objects.filter(user=user).delete()
