from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import LinkForecastViewSet, LinkTelemetryView, RemoteWriteView, TelemetryIngestView

router = SimpleRouter()
router.register("link-forecasts", LinkForecastViewSet)

urlpatterns = [
    path("telemetry/", TelemetryIngestView.as_view(), name="telemetry-ingest"),
    path("telemetry/remote-write/", RemoteWriteView.as_view(), name="telemetry-remote-write"),
    path("links/<int:pk>/telemetry/", LinkTelemetryView.as_view(), name="link-telemetry"),
    *router.urls,
]
