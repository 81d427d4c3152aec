"""Login throttling: the one rule for every place a password is checked (the API token, the UI's
session login, Django admin's login).

Failed attempts are counted per user name and per client address, in the shared cache (Redis), so
every gunicorn process and host sees the same counts. When either count reached its limit within
the current window, every login attempt for that user name (or from that client) is refused with
429 and `Retry-After` until the window ends, *before* the password is checked: the right password
during a lock-out is refused too, so guessing cannot be confirmed by a success.

What counts: a password check that failed (Django's `user_login_failed` signal, sent by
`authenticate()` wherever it runs with a request). Successful logins do not count: a script or the
UI logging in often is never slowed, and a lock-out costs an attacker nothing to trigger anyway.

With the cache (Redis) unreachable the throttle lets logins through and logs it: during an outage
operators must still be able to log in and act; password hashing still slows guessing.

Windows are fixed (minute `n`, hour `n`, ...) and counted with Redis' atomic INCR, so parallel
attempts on several processes cannot slip past the limit; at a window's edge up to twice the limit
may pass within a short time, never more than the limit per window on average.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from rest_framework.throttling import SimpleRateThrottle

USERNAME_FIELD = "username"
logger = logging.getLogger(__name__)


def _username_from(request: Any) -> str | None:
    """The user name a login request names: DRF's parsed body, or the admin's form."""
    data = getattr(request, "data", None)
    if data is None:
        data = request.POST if request.method == "POST" else {}
    if not hasattr(data, "get"):
        return None  # a JSON list or scalar: the serializer refuses it
    value = data.get(USERNAME_FIELD)
    return value if isinstance(value, str) and value else None


class _LoginFailureThrottle(SimpleRateThrottle):
    """A DRF throttle that only *checks* (allow_request never records): failures are recorded by
    `record_failure`. The rate comes from settings.LOGIN_THROTTLE at call time."""

    setting_key = ""
    num_requests: int
    duration: int

    def get_rate(self) -> str | None:
        return settings.LOGIN_THROTTLE[self.setting_key]

    def ident_for(self, request: Any, username: str | None) -> str | None:
        raise NotImplementedError

    def _key(self, ident: str, now: float) -> str:
        window = int(now // self.duration)
        digest = hashlib.sha256(ident.encode()).hexdigest()[:32]  # any user name is a safe cache key
        return f"login-throttle:{self.scope}:{digest}:{self.duration}:{window}"

    def _retry_after(self, now: float) -> float:
        return self.duration - (now % self.duration)

    def failures(self, request: Any, username: str | None, now: float) -> int:
        ident = self.ident_for(request, username)
        if ident is None or self.rate is None:
            return 0
        try:
            return int(cache.get(self._key(ident, now), 0))
        except Exception as exc:  # Redis down: people must still log in to act during the outage
            logger.warning("login throttle: the cache is unreachable (%s); not throttling", exc)
            return 0

    def allow_request(self, request: Any, view: Any) -> bool:
        self.now = time.time()
        if self.rate is None:
            return True
        return self.failures(request, _username_from(request), self.now) < self.num_requests

    def wait(self) -> float:
        return self._retry_after(self.now)

    def record_failure(self, request: Any, username: str | None) -> None:
        ident = self.ident_for(request, username)
        if ident is None or self.rate is None:
            return
        key = self._key(ident, time.time())
        # add() then incr(): both atomic in Redis; the key lives one window (plus a margin).
        try:
            cache.add(key, 0, timeout=self.duration + 5)
            cache.incr(key)
        except Exception as exc:  # Redis down: the failure goes uncounted (password hashing still slows guessing)
            logger.warning("login throttle: the cache is unreachable (%s); a failure went uncounted", exc)


class LoginUserThrottle(_LoginFailureThrottle):
    scope = "user"
    setting_key = "per_username"

    def ident_for(self, request: Any, username: str | None) -> str | None:
        # Case-folded: "Admin" and "admin" share one count (a guess at either is a guess).
        return username.strip().casefold() if username else None


class LoginClientThrottle(_LoginFailureThrottle):
    scope = "client"
    setting_key = "per_client"

    def ident_for(self, request: Any, username: str | None) -> str | None:
        # REMOTE_ADDR, or X-Forwarded-For behind REST_FRAMEWORK["NUM_PROXIES"] proxies.
        return self.get_ident(request)


LOGIN_THROTTLES: tuple[type[_LoginFailureThrottle], ...] = (LoginClientThrottle, LoginUserThrottle)


def retry_after_s(request: Any) -> int | None:
    """Seconds until this login request may be tried, or None when it may be tried now."""
    waits = []
    for throttle_class in LOGIN_THROTTLES:
        throttle = throttle_class()
        if not throttle.allow_request(request, None):
            waits.append(throttle.wait())
    return math.ceil(max(waits)) if waits else None


@receiver(user_login_failed, dispatch_uid="accounts.throttle.count_login_failure")
def count_login_failure(sender, credentials: dict, request=None, **kwargs) -> None:
    if request is None:
        return  # a check outside any request (a management command): no client to count
    username = credentials.get(USERNAME_FIELD)
    for throttle_class in LOGIN_THROTTLES:
        throttle_class().record_failure(request, username if isinstance(username, str) else None)


def throttled_login(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wraps a form login view that is not DRF (Django admin's): a POST during a lock-out gets
    429 with Retry-After instead of the form."""

    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method == "POST":
            wait = retry_after_s(request)
            if wait is not None:
                response = HttpResponse(
                    f"Too many failed logins. Try again in {wait} seconds.\n", status=429, content_type="text/plain"
                )
                response["Retry-After"] = str(wait)
                return response
        return view(request, *args, **kwargs)

    return wrapped
