"""Sokoban's own page: the level browser (collections, each level's progress, uploads)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.views.decorators.csrf import ensure_csrf_cookie


@login_required
@ensure_csrf_cookie
def levels_page(request: HttpRequest) -> HttpResponse:
    return render(request, "sokoban/levels.html")


urlpatterns = [
    path("", levels_page, name="sokoban"),
]
