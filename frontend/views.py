"""Server-rendered pages. They carry no game logic: the JS asks the API."""

from __future__ import annotations

from django.contrib.auth import authenticate, get_user_model, login, logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from accounts import services as accounts
from core import hooks
from core import throttle
from core.errors import DomainError, TooMany
from core.i18n import translate
from games.engines.registry import ENGINES
from games.models import Match, Room

from . import catalogue
from .forms import CredentialsForm


def _credentials_page(request: HttpRequest, *, register: bool) -> HttpResponse:
    form = CredentialsForm(request.POST or None)
    error = ""
    status = 200
    if request.method == "POST" and form.is_valid():
        username, password = form.cleaned_data["username"], form.cleaned_data["password"]
        user = None
        address = request.META.get("REMOTE_ADDR")
        try:
            if register:
                throttle.hit_address("register", address)
                user, _ = accounts.user_register(username=username, password=password)
            else:
                throttle.hit_login(address, username)
                user = authenticate(request, username=username, password=password)
                if user is None:
                    error = gettext("Wrong username or password.")
        except TooMany as exc:
            error, status = translate(exc.detail), 429
        except DomainError as exc:
            error = translate(exc.detail)
        if user is not None:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_safe_next(request))
    return render(
        request, "frontend/credentials.html", {"form": form, "error": error, "register": register}, status=status
    )


def _safe_next(request: HttpRequest) -> str:
    """Where to go after logging in: ``next`` only if it stays on this site."""
    target = request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return "/"


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and tools ask for /favicon.ico whatever a page links: send them to the icon."""
    return redirect(static("frontend/favicon.svg"))


def register_page(request: HttpRequest) -> HttpResponse:
    return _credentials_page(request, register=True)


def login_page(request: HttpRequest) -> HttpResponse:
    return _credentials_page(request, register=False)


@require_POST
def logout_page(request: HttpRequest) -> HttpResponse:
    logout(request)
    return redirect("login")


@login_required
@ensure_csrf_cookie
def lobby(request: HttpRequest) -> HttpResponse:
    """The catalogue: a card per game of GET /api/games/ (drawn by lobby.js), then the rooms and my games."""
    return render(
        request,
        "frontend/lobby.html",
        {"pools": catalogue.pools(), "pictures": catalogue.board_pictures()},
    )


@login_required
def leaderboard_page(request: HttpRequest, pool: str | None = None) -> HttpResponse:
    """A tab per rating pool; the chosen pool's table comes from GET /api/leaderboards/{pool}/."""
    pools = catalogue.pools()
    names = [entry["pool"] for entry in pools]
    if pool is None:
        pool = names[0] if names else ""
    elif pool not in names:
        raise Http404(f"there is no rating pool {pool!r}")
    return render(request, "frontend/leaderboard.html", {"pools": pools, "pool": pool})


@login_required
def player_page(request: HttpRequest, username: str) -> HttpResponse:
    """Ratings, record, rating history and finished games, from the /api/players/ endpoints."""
    player = get_object_or_404(get_user_model(), username__iexact=username)
    return render(request, "frontend/player.html", {"player": player, "pools": catalogue.pools()})


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    """How to play: the game's own page where one was written, else its engine's statement of the rules."""
    engine = ENGINES.get(slug)
    if engine is None:
        raise Http404(f"there is no game {slug!r}")
    return render(
        request,
        "frontend/rules.html",
        {
            "engine": engine,
            "rules_template": catalogue.rules_template(slug),
            "engine_rules": catalogue.engine_rules(engine),
            "picture": catalogue.board_picture(slug),
            "games": [{"slug": other.slug, "name": other.name} for other in ENGINES.values()],
        },
    )


@login_required
@ensure_csrf_cookie
def room_page(request: HttpRequest, room_id: int) -> HttpResponse:
    room = get_object_or_404(Room, pk=room_id)
    # Where a player goes on leaving a game played alone: the game's own page, else the lobby.
    home = hooks.GAME_PAGES.get(room.game)
    return render(request, "frontend/room.html", {"room": room, "leave_to": reverse(home) if home else reverse("lobby")})


@login_required
@ensure_csrf_cookie
def replay_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("room"), pk=match_id)
    return render(request, "frontend/replay.html", {"match": match})


@login_required
@ensure_csrf_cookie
def settings_page(request: HttpRequest) -> HttpResponse:
    """Display name, sound volume and default turn time; the page saves them through PATCH /api/auth/me/."""
    return render(request, "frontend/settings.html")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's own 404 (settings DEBUG off): a page in the site's frame; JSON under /api/."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "detail": gettext("not found")}, status=404)
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's own 500, with the request's id (also in the log beside the traceback).

    The page stands alone (no top bar): whatever failed, the database
    included, must not fail the error page too.
    """
    request_id = getattr(request, "request_id", "")
    if request.path.startswith("/api/"):
        return JsonResponse(
            {"code": "server_error", "detail": gettext("something went wrong on the server"), "request_id": request_id},
            status=500,
        )
    return HttpResponse(render_to_string("500.html", {"request_id": request_id}), status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A refused CSRF check: the API's error shape under /api/, a short page elsewhere."""
    detail = gettext("the request was refused: reload the page and try again (CSRF check failed)")
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "csrf_failed", "detail": detail}, status=403)
    return HttpResponse(detail, status=403, content_type="text/plain; charset=utf-8")
