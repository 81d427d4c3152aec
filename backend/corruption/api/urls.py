from django.urls import path

from .views import LinkCorrOptCheckView

urlpatterns = [
    path("links/<int:pk>/corropt-check/", LinkCorrOptCheckView.as_view(), name="link-corropt-check"),
]
