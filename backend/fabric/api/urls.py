from django.urls import path

from .pages import FabricRacksView, RackOverviewView, SearchView, SwitchOverviewView

urlpatterns = [
    path("search/", SearchView.as_view(), name="search"),
    path("switches/<int:pk>/overview/", SwitchOverviewView.as_view(), name="switch-overview"),
    path("fabrics/<int:pk>/racks/", FabricRacksView.as_view(), name="fabric-racks"),
    # A rack's name may hold any character but "/" (the UI encodes it).
    path("fabrics/<int:pk>/racks/<str:rack>/", RackOverviewView.as_view(), name="fabric-rack"),
]
