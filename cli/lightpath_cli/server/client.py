"""A small synchronous client for the Lightpath REST API that turns every failure into a CliError."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import Any

import httpx

from .. import __version__
from ..config import TOKEN_ENV
from ..errors import CliError
from .errors import ApiError, one_line, validation_messages

DEFAULT_TIMEOUT_S = 30.0
# The API's max_limit: list pages are fetched this many rows at a time.
PAGE_SIZE = 1000
NOT_LOGGED_IN = f"not logged in (run `lightpath login` or set {TOKEN_ENV})"
# DRF's messages when authentication fails but the server answers 403 rather than 401.
_AUTH_FAILURE_HINTS = ("credentials were not provided", "invalid token", "user inactive or deleted")


def _connect_reason(exc: Exception) -> str:
    text = re.sub(r"^\[Errno -?\d+\]\s*", "", str(exc)) or type(exc).__name__
    return text[:1].lower() + text[1:]


def _detail(payload: Any, response: httpx.Response) -> str:
    if isinstance(payload, dict) and isinstance(payload.get("detail"), str):
        return str(payload["detail"])
    text = " ".join(response.text.split())
    return text[:200] if text else response.reason_phrase


class ApiClient:
    def __init__(
        self,
        server: str,
        token: str | None = None,
        *,
        token_source: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        self.server = server
        self.token = token
        self.token_source = token_source
        headers = {"Accept": "application/json", "User-Agent": f"lightpath-cli/{__version__}"}
        if token:
            headers["Authorization"] = f"Token {token}"
        self._http = httpx.Client(base_url=server, headers=headers, timeout=timeout)

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        timeout: float | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """One request; `json` sends a JSON body, `content` raw bytes (set Content-Type in `headers`)."""
        extra: dict[str, Any] = {}
        if timeout is not None:
            extra["timeout"] = timeout
        if content is not None:
            extra["content"] = content
        try:
            response = self._http.request(method, path, params=params, json=json, headers=headers, **extra)
        except httpx.ConnectError as exc:
            raise CliError(f"cannot reach {self.server}: {_connect_reason(exc)}") from exc
        except httpx.TimeoutException as exc:
            waited = timeout if timeout is not None else self._http.timeout.read
            raise CliError(f"{self.server} did not answer {method} {path} within {waited:g} s") from exc
        except httpx.HTTPError as exc:
            raise CliError(f"request to {self.server} failed: {exc}") from exc
        if response.status_code >= 400:
            raise self._error(method, path, response)
        if 300 <= response.status_code < 400:
            # Not followed: a token must not go wherever a Location header points (http -> https
            # redirects included), and a redirect means the server URL is not the API's.
            where = response.headers.get("location") or "elsewhere"
            raise ApiError(
                f"{self.server} redirected {method} {path} to {where} (check the server URL)",
                status=response.status_code,
                payload=None,
            )
        return response

    def _error(self, method: str, path: str, response: httpx.Response) -> ApiError:
        status = response.status_code
        try:
            payload: Any = response.json()
        except ValueError:
            payload = None
        detail = _detail(payload, response)
        if status == 401 or (
            status == 403 and (not self.token or any(hint in detail.lower() for hint in _AUTH_FAILURE_HINTS))
        ):
            if not self.token:
                message = NOT_LOGGED_IN
            else:
                message = f"{self.server} rejected the token from {self.token_source} (run `lightpath login` again)"
            return ApiError(message, status=status, payload=payload)
        if status == 403:
            return ApiError(f"permission denied: {detail}", status=status, payload=payload)
        if status == 404:
            return ApiError(f"not found: {method} {path}", status=status, payload=payload)
        if status == 400:
            problems = validation_messages(payload) if payload is not None else [detail]
            error = ApiError(f"{method} {path} rejected: {one_line(problems)}", status=status, payload=payload)
            error.details = problems
            return error
        if status >= 500:
            return ApiError(f"server error {status} on {method} {path}: {detail}", status=status, payload=payload)
        return ApiError(f"{method} {path} failed with HTTP {status}: {detail}", status=status, payload=payload)

    @staticmethod
    def _json(response: httpx.Response) -> Any:
        if response.status_code == 204 or not response.content:
            return None
        try:
            return response.json()
        except ValueError as exc:
            raise CliError(
                f"unexpected non-JSON answer from {response.request.method} {response.request.url.path}"
            ) from exc

    def get(self, path: str, params: Mapping[str, Any] | None = None, *, timeout: float | None = None) -> Any:
        return self._json(self.request("GET", path, params=params, timeout=timeout))

    def post(
        self,
        path: str,
        body: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any:
        return self._json(self.request("POST", path, params=params, json=body, timeout=timeout))

    def patch(
        self,
        path: str,
        body: Any = None,
        *,
        params: Mapping[str, Any] | None = None,
        timeout: float | None = None,
    ) -> Any:
        return self._json(self.request("PATCH", path, params=params, json=body, timeout=timeout))

    def first(self, path: str, params: Mapping[str, Any], limit: int) -> tuple[list[dict[str, Any]], int]:
        """Up to `limit` rows of a paginated list, a page of at most PAGE_SIZE per request, and how
        many match in all."""
        rows: list[dict[str, Any]] = []
        total = 0
        while len(rows) < limit:
            page = self.get(path, {**params, "limit": min(PAGE_SIZE, limit - len(rows)), "offset": len(rows)})
            results = page.get("results") or []
            total = int(page.get("count") or 0)
            rows.extend(results)
            if not results or len(rows) >= total:
                break
        return rows[:limit], total

    def iterate(self, path: str, params: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
        """Every row of a paginated list, page by page (offset arithmetic, not the `next` URL)."""
        offset = 0
        while True:
            page = self.get(path, {**(params or {}), "limit": PAGE_SIZE, "offset": offset})
            if isinstance(page, list):  # an unpaginated list endpoint
                yield from page
                return
            results = page.get("results") or []
            yield from results
            offset += len(results)
            if not results or offset >= int(page.get("count") or 0):
                return
