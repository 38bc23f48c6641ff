"""Account writes: registration and tokens."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.functional import lazy

from core.errors import Conflict, Invalid, NotFound
from core.prepared import PreparedChange
from core.i18n import languages
from games.engines.words import words

from .models import ApiToken, User

USERNAME_MAX = 30


def user_register(*, username: str, password: str) -> tuple[User, ApiToken]:
    username = (username or "").strip()
    if not username:
        raise Invalid("invalid", words("username is required"))
    # ASCII only: case-insensitive uniqueness then means the same on SQLite
    # (whose LIKE folds only ASCII) as on PostgreSQL. Display names may be any text.
    if len(username) > USERNAME_MAX or not all(c.isascii() and (c.isalnum() or c in "_-.") for c in username):
        raise Invalid(
            "invalid",
            words(
                "a username is 1..%(maximum)s letters a-z, digits, '_', '-' or '.' (set any name as display name)",
                maximum=USERNAME_MAX,
            ),
        )
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict("username_taken", words("the username %(username)r is taken", username=username))
    _check_password(password, User(username=username))
    # Hash before the transaction: the hash takes a good part of a second of
    # CPU on purpose, and on SQLite a transaction holds the one write lock
    # for everyone (a burst of sign-ups used to time out behind it).
    user = User(username=username)
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
            token = ApiToken.objects.create(user=user, key=ApiToken.new_key(), name="registration")
    except IntegrityError as error:  # two registrations of one name at once
        raise Conflict("username_taken", words("the username %(username)r is taken", username=username)) from error
    except OperationalError as error:  # SQLite's lock wait ran out under a burst
        if "locked" not in str(error).lower():
            raise
        raise Conflict("busy", words("the server is busy; retry in a moment")) from error
    return user, token


def _check_password(password: str, user: User) -> None:
    """Django's validators (settings.AUTH_PASSWORD_VALIDATORS): long enough, not
    common, not all digits, not like the username."""
    try:
        validate_password(password, user=user)
    except DjangoValidationError as error:
        # Django's own words for why, put in the reader's language when shown.
        raise Invalid("invalid", _joined_lazy(error)) from error


def password_change(*, user: User, old_password: Any, new_password: Any) -> None:
    """A new password for ``user``, who proves the old one; their sessions elsewhere end."""
    if not isinstance(old_password, str) or not isinstance(new_password, str) or not new_password:
        raise Invalid("invalid", words("old_password and new_password are required"))
    if not user.check_password(old_password):
        raise Invalid("invalid_credentials", words("the old password is wrong"))
    _check_password(new_password, user)
    user.set_password(new_password)
    user.save(update_fields=["password"])


def _joined(error: DjangoValidationError) -> str:
    return " ".join(error.messages)


_joined_lazy = lazy(_joined, str)


# The most tokens one player holds; a new one beyond it retires the least recently used.
TOKENS_MAX = 50


def token_create(*, user: User, name: Any = "") -> ApiToken:
    """A new API token of ``user`` (a login, a device, a bot); its key is shown once."""
    if not isinstance(name, str) or len(name) > 60:
        raise Invalid("invalid", words("a token's name is text of at most 60 characters"))
    with transaction.atomic():
        token = ApiToken.objects.create(user=user, key=ApiToken.new_key(), name=name.strip())
        stale = ApiToken.objects.filter(user=user).order_by("-last_used", "-created_at", "-id")[TOKENS_MAX:]
        ApiToken.objects.filter(pk__in=[t.pk for t in stale]).delete()
    return token


def token_revoke(*, user: User, token_id: Any) -> None:
    """Revoke one of the user's tokens (any other id is not found, whoever's it is)."""
    if not isinstance(token_id, int) or not ApiToken.objects.filter(user=user, pk=token_id).delete()[0]:
        raise NotFound("not_found", words("no such token"))


# Preferences a player may set, with their checks; unknown keys are refused.
PREFERENCES = {
    "volume": (int, 0, 100),  # sound effects, percent
    "default_turn_seconds": (int, 0, 24 * 3600),  # the turn limit new rooms start with
}
# The site's language for this player ("en", "ko": settings.LANGUAGES); it wins
# over the browser's. null removes it: the browser's language again.
LANGUAGE = "language"
DISPLAY_NAME_MAX = 40


def user_update(*, user: User, display_name: object = None, preferences: object = None) -> User:
    if display_name is not None:
        if not isinstance(display_name, str) or len(display_name.strip()) > DISPLAY_NAME_MAX:
            raise Invalid(
                "invalid", words("display_name is text of at most %(maximum)s characters", maximum=DISPLAY_NAME_MAX)
            )
        user.display_name = display_name.strip()
    if preferences is not None:
        if not isinstance(preferences, dict):
            raise Invalid("invalid", words("preferences must be an object"))
        unknown = sorted(set(preferences) - {*PREFERENCES, LANGUAGE})
        if unknown:
            raise Invalid("invalid", words("unknown preference(s): %(names)s", names=", ".join(unknown)))
        for name, value in preferences.items():
            if name == LANGUAGE:
                if value is not None and value not in languages():
                    raise Invalid(
                        "invalid", words("language must be one of: %(choices)s", choices=", ".join(languages()))
                    )
                continue
            kind, low, high = PREFERENCES[name]
            if type(value) is not kind or not low <= value <= high:
                raise Invalid(
                    "invalid",
                    words("%(name)s must be a whole number from %(low)s to %(high)s", name=name, low=low, high=high),
                )
        user.preferences = {
            name: value for name, value in {**user.preferences, **preferences}.items() if value is not None
        }
    user.save(update_fields=["display_name", "preferences"])
    return user


# At every socket's connect and presence beat: compiled once (core.prepared).
USER_SEEN = PreparedChange(lambda user_id: User.objects.filter(pk=user_id), -7_770_021, update=["last_seen"])


def user_seen(user_id: int) -> None:
    """One of the user's sockets is open now."""
    USER_SEEN.run(user_id, new=(timezone.now(),))


# A player none of whose sockets has been open for this long is away: two
# presence beats missed, and then some.
AWAY_SECONDS = 45


def is_away(user: User) -> bool:
    return user.last_seen is None or (timezone.now() - user.last_seen).total_seconds() > AWAY_SECONDS
