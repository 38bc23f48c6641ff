"""Request and response shapes of the account endpoints, for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers


class RegisterIn(serializers.Serializer):  # type: ignore[misc]
    username = serializers.CharField()
    password = serializers.CharField()


class PasswordIn(serializers.Serializer):  # type: ignore[misc]
    old_password = serializers.CharField()
    new_password = serializers.CharField()


class RegisterOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    username = serializers.CharField()
    token = serializers.CharField()


class LoginOut(serializers.Serializer):  # type: ignore[misc]
    token = serializers.CharField()
    username = serializers.CharField()


class MeOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    username = serializers.CharField()
    display_name = serializers.CharField()
    preferences = serializers.JSONField()


class MeIn(serializers.Serializer):  # type: ignore[misc]
    display_name = serializers.CharField(required=False, max_length=40)
    preferences = serializers.JSONField(required=False, help_text="volume 0-100, default_turn_seconds, language (en, ko or null)")


class TokenIn(serializers.Serializer):  # type: ignore[misc]
    name = serializers.CharField(required=False, max_length=60)


class TokenOut(serializers.Serializer):  # type: ignore[misc]
    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)
    current = serializers.BooleanField()


class TokenCreated(TokenOut):
    key = serializers.CharField()
