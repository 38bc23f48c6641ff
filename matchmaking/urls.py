from django.urls import path

from . import api

urlpatterns = [
    path("seeks/", api.SeekList.as_view(), name="seek-list"),
    path("seeks/<int:seek_id>/", api.SeekDetail.as_view(), name="seek-detail"),
]
