"""Every model endpoint registered in an API router has a generic API test class (api_base.py),
so the next endpoint cannot slip through without its permission, filter and query-count tests;
and the query-count baseline names only endpoints that exist."""

import importlib
import pkgutil
from pathlib import Path

from django.urls import URLResolver, get_resolver
from rest_framework.routers import BaseRouter

from . import query_counts
from .api_base import EndpointTestBase

BACKEND = Path(__file__).resolve().parents[2]


def registered_endpoints() -> set[str]:
    """'/api/<prefix>/' of every viewset registered in a router that the URLconf includes."""
    endpoints = set()
    for module_name in ["lightpath.urls", *(f"{app}.api.urls" for app in _apps())]:
        module = importlib.import_module(module_name)
        for value in vars(module).values():
            if isinstance(value, BaseRouter):
                endpoints |= {f"/api/{prefix}/" for prefix, _viewset, _basename in value.registry}
    return endpoints


def _apps() -> list[str]:
    return sorted(path.parent.parent.name for path in BACKEND.glob("*/api/urls.py"))


def endpoints_with_a_test_class() -> set[str]:
    """Endpoints of the generic test classes in every app's tests package."""
    for app in sorted({path.parent.parent.name for path in BACKEND.glob("*/tests/__init__.py")}):
        package = importlib.import_module(f"{app}.tests")
        for info in pkgutil.iter_modules(package.__path__):
            if info.name.startswith("test_"):
                importlib.import_module(f"{app}.tests.{info.name}")
    return {cls.endpoint for cls in _subclasses(EndpointTestBase) if "endpoint" in vars(cls)}


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_router_endpoint_has_a_generic_test_class():
    registered = registered_endpoints()
    assert "/api/fabrics/" in registered and "/api/demands/" in registered  # both routers are walked
    missing = registered - endpoints_with_a_test_class()
    assert not missing, f"no generic API test class (lightpath/tests/api_base.py) for {sorted(missing)}"


def test_the_routers_walked_are_the_ones_the_urlconf_serves():
    served = {str(pattern.pattern) for pattern in get_resolver().url_patterns if isinstance(pattern, URLResolver)}
    assert "api/" in served
    for endpoint in registered_endpoints():
        assert get_resolver().resolve(endpoint).url_name.endswith("-list"), endpoint


def test_the_query_count_baseline_names_only_tested_endpoints():
    tested = endpoints_with_a_test_class()
    stale = [key for key in query_counts.read_baseline() if key.split()[1].split("{id}/")[0] not in tested]
    assert not stale, f"{query_counts.BASELINE.name} has counts of endpoints no test measures: {stale}"
