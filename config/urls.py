from django.contrib import admin
from django.urls import include, path, re_path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from core import hooks
from core.i18n import AppCatalogue
from games.api.views import api_not_found
from games.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Languages: the switch posts to /i18n/setlang/ (Django's set_language); the
    # scripts' own words come from /jsi18n/, the games' words from /jsi18n/games/.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("jsi18n/games/", AppCatalogue.as_view(packages=["games"]), name="games-catalogue"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/auth/", include("accounts.urls")),
    # The apps' own endpoints (core.hooks.api_urls, registered in their ready()).
    *[path(f"api/{prefix}", include(module)) for prefix, module in hooks.API_URLS],
    path("api/", include("ratings.urls")),
    path("api/", include("matchmaking.urls")),
    path("api/", include("games.api.urls")),
    # Anything else under /api/ (a typo, a missing slash, a non-numeric id)
    # is a 404 in the API's error shape, not an HTML page or a slash redirect.
    re_path(r"^api/", api_not_found),
    *[path(prefix, include(module)) for prefix, module in hooks.PAGE_URLS],
    path("", include("frontend.urls")),
]

# The site's own error pages (frontend/templates/404.html, 500.html); under
# /api/ the API's error shape instead.
handler404 = "frontend.views.page_not_found"
handler500 = "frontend.views.server_error"
