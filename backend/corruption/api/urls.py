from django.urls import path

from .views import FabricOptimizeView, LinkCorrOptCheckView

urlpatterns = [
    path("links/<int:pk>/corropt-check/", LinkCorrOptCheckView.as_view(), name="link-corropt-check"),
    path("fabrics/<int:pk>/optimize/", FabricOptimizeView.as_view(), name="fabric-optimize"),
]
