from django.urls import path

from .views import RailFecView

urlpatterns = [
    path("rail/fec/", RailFecView.as_view(), name="rail-fec"),
]
