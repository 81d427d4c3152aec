from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.api.views import UserViewSet
from accounts.throttle import throttled_login
from audit.api.views import AuditEventViewSet
from corruption.api.views import DecisionViewSet, TicketViewSet
from fabric.api.views import FabricViewSet, LinkViewSet, SwitchViewSet, TransceiverModelViewSet, TransceiverViewSet
from jobs.api.views import JobViewSet
from maintenance.api.views import WorkOrderViewSet
from telemetry.api.views import CorruptionEventViewSet, PowerThresholdViewSet
from webhooks.api.views import WebhookDeliveryViewSet, WebhookEndpointViewSet

from .api.routers import BulkRouter
from .api.views import HealthView, spa_index

handler404 = "lightpath.api.views.not_found"

router = BulkRouter()
router.register("fabrics", FabricViewSet)
router.register("switches", SwitchViewSet)
router.register("links", LinkViewSet)
router.register("transceiver-models", TransceiverModelViewSet)
router.register("transceivers", TransceiverViewSet)
router.register("jobs", JobViewSet)
router.register("audit", AuditEventViewSet)
router.register("corruption-events", CorruptionEventViewSet)
router.register("power-thresholds", PowerThresholdViewSet)
router.register("decisions", DecisionViewSet)
router.register("tickets", TicketViewSet)
router.register("work-orders", WorkOrderViewSet)
router.register("webhooks", WebhookEndpointViewSet)
router.register("webhook-deliveries", WebhookDeliveryViewSet)
router.register("users", UserViewSet)

urlpatterns = [
    path("api/health/", HealthView.as_view(), name="health"),
    path("api/auth/", include("accounts.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's script as a file: no inline script (lightpath/security.py).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    path("api/", include("fabric.api.urls")),
    path("api/", include("telemetry.api.urls")),
    path("api/", include("corruption.api.urls")),
    path("api/", include("planning.api.urls")),
    path("api/", include("reconfig.api.urls")),
    path("api/", include("circuits.api.urls")),
    path("api/", include("maintenance.api.urls")),
    path("api/", include(router.urls)),
    # The admin's login under the same login throttle as the API's (README "Security").
    path("admin/login/", throttled_login(admin.site.login)),
    path("admin/", admin.site.urls),
    # Everything else is a route of the single-page app; a missing bundle under assets/ stays a 404.
    re_path(r"^(?!api/|admin/|static/|assets/)(?P<path>.*)$", spa_index, name="spa"),
]
