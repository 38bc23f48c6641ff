"""Account writes: registration and tokens."""

from __future__ import annotations

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from core.errors import Conflict, Invalid

from .models import User

USERNAME_MAX = 30


def user_register(*, username: str, password: str) -> tuple[User, Token]:
    username = (username or "").strip()
    if not username:
        raise Invalid("invalid", "username is required")
    # ASCII only: case-insensitive uniqueness then means the same on SQLite
    # (whose LIKE folds only ASCII) as on PostgreSQL. Display names may be any text.
    if len(username) > USERNAME_MAX or not all(c.isascii() and (c.isalnum() or c in "_-.") for c in username):
        raise Invalid(
            "invalid",
            f"a username is 1..{USERNAME_MAX} letters a-z, digits, '_', '-' or '.' (set any name as display name)",
        )
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("username_taken", f"the username {username!r} is taken")
    try:
        validate_password(password)
    except DjangoValidationError as error:
        raise Invalid("invalid", " ".join(error.messages)) from error
    # Hash before the transaction: the hash takes a good part of a second of
    # CPU on purpose, and on SQLite a transaction holds the one write lock
    # for everyone (a burst of sign-ups used to time out behind it).
    user = User(username=username)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
            token = Token.objects.create(user=user)
    except IntegrityError as error:  # two registrations of one name at once
        raise Conflict("username_taken", f"the username {username!r} is taken") from error
    except OperationalError as error:  # SQLite's lock wait ran out under a burst
        if "locked" not in str(error).lower():
            raise
        raise Conflict("busy", "the server is busy; retry in a moment") from error
    return user, token


def token_for(*, user: User) -> Token:
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User) -> None:
    Token.objects.filter(user=user).delete()


# Preferences a player may set, with their checks; unknown keys are refused.
PREFERENCES = {
    "volume": (int, 0, 100),  # sound effects, percent
    "default_turn_seconds": (int, 0, 24 * 3600),  # the turn limit new rooms start with
}
DISPLAY_NAME_MAX = 40


def user_update(*, user: User, display_name: object = None, preferences: object = None) -> User:
    if display_name is not None:
        if not isinstance(display_name, str) or len(display_name.strip()) > DISPLAY_NAME_MAX:
            raise Invalid("invalid", f"display_name is text of at most {DISPLAY_NAME_MAX} characters")
        user.display_name = display_name.strip()
    if preferences is not None:
        if not isinstance(preferences, dict):
            raise Invalid("invalid", "preferences must be an object")
        unknown = sorted(set(preferences) - set(PREFERENCES))
        if unknown:
            raise Invalid("invalid", f"unknown preference(s): {', '.join(unknown)}")
        for name, value in preferences.items():
            kind, low, high = PREFERENCES[name]
            if type(value) is not kind or not low <= value <= high:
                raise Invalid("invalid", f"{name} must be a whole number from {low} to {high}")
        user.preferences = {**user.preferences, **preferences}
    user.save(update_fields=["display_name", "preferences"])
    return user


def user_seen(user_id: int) -> None:
    """One of the user's sockets is open now."""
    User.objects.filter(pk=user_id).update(last_seen=timezone.now())


# A player none of whose sockets has been open for this long is away: two
# presence beats missed, and then some.
AWAY_SECONDS = 45


def is_away(user: User) -> bool:
    return user.last_seen is None or (timezone.now() - user.last_seen).total_seconds() > AWAY_SECONDS
