"""Security headers Django's SecurityMiddleware does not set (README "Security").

A Content-Security-Policy on every response: scripts, styles, fonts, connections and frames
only from Lightpath itself, no inline script anywhere. The UI (frontend/dist) has no inline
script or style. Two HTML pages carry inline <style> blocks of their own: Swagger UI at /api/docs/
(drf-spectacular's template; its script is served as a file by the split view) and Django's admin
(a changelist without actions), so under those paths inline styles (never scripts) are allowed.

Django 6 has CSP built in; on 5.2 this small middleware is the whole of it (django-csp would
bring nonces and report endpoints Lightpath does not need).
"""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    # The UI's favicon and Swagger UI's icons are data: URIs.
    "img-src": "'self' data:",
    "font-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
INLINE_STYLE_PATHS = ("/api/docs/", "/admin/")


def policy_for(path: str) -> str:
    policy = dict(POLICY)
    if path.startswith(INLINE_STYLE_PATHS):
        policy["style-src"] = "'self' 'unsafe-inline'"
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


DEFAULT_POLICY = policy_for("/")


class SecurityHeadersMiddleware:
    """First in MIDDLEWARE, so that responses WhiteNoise answers itself (the UI) get it too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            path = request.path_info
            response["Content-Security-Policy"] = (
                policy_for(path) if path.startswith(INLINE_STYLE_PATHS) else DEFAULT_POLICY
            )
        # Nothing in Lightpath uses these browser features.
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
        return response
