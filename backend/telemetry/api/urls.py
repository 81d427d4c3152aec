from django.urls import path

from .views import LinkTelemetryView, TelemetryIngestView

urlpatterns = [
    path("telemetry/", TelemetryIngestView.as_view(), name="telemetry-ingest"),
    path("links/<int:pk>/telemetry/", LinkTelemetryView.as_view(), name="link-telemetry"),
]
