from django.conf import settings
from django.db import connection
from django.http import Http404, HttpResponse, JsonResponse
from django.views import defaults
from django.views.csrf import csrf_failure as django_csrf_failure
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from fabric.services import engine
from lightpath import spa
from lightpath_worker import app as celery_app


class HealthView(APIView):
    """Liveness of the database, the broker and the engine; open to anonymous monitors."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        responses=inline_serializer(
            "Health",
            {name: serializers.CharField() for name in ("status", "database", "broker", "engine")},
        )
    )
    def get(self, request):
        checks = {"database": "ok", "broker": "ok", "engine": engine.version()}
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception as exc:  # report, don't crash: this endpoint exists to say what is down
            checks["database"] = f"error: {type(exc).__name__}"
        try:
            with celery_app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=2)
        except Exception as exc:
            checks["broker"] = f"error: {type(exc).__name__}"
        healthy = checks["database"] == "ok" and checks["broker"] == "ok"
        return Response(
            {"status": "ok" if healthy else "degraded", **checks},
            status=status.HTTP_200_OK if healthy else status.HTTP_503_SERVICE_UNAVAILABLE,
        )


def spa_index(request, path=""):
    """The React app's index.html for every client-side route (assets come from WhiteNoise), naming
    the route's page code for the browser to fetch at once (lightpath.spa)."""
    try:
        html = spa.index_html(settings.FRONTEND_DIST, path)
    except FileNotFoundError:
        raise Http404("The frontend is not built: run `make frontend`.") from None
    return HttpResponse(html, content_type="text/html; charset=utf-8")


# Answers Django gives outside DRF views, in the API's error shape ({"detail"}) under /api/:
# a path no route matches, and a CSRF refusal of a csrf_protect'ed view (the session login).
def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def not_found(request, exception=None):
    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def csrf_failure(request, reason=""):
    if _is_api(request):
        return JsonResponse({"detail": f"CSRF Failed: {reason}"}, status=403)
    return django_csrf_failure(request, reason)
