from rest_framework.routers import DefaultRouter, Route


class BulkRouter(DefaultRouter):
    """DRF's router, plus `PATCH` on a list route for viewsets that define
    `bulk_partial_update` (NetBox's bulk edit: a list of {"id", ...} changes)."""

    def get_routes(self, viewset):
        routes = super().get_routes(viewset)
        if not hasattr(viewset, "bulk_partial_update"):
            return routes
        return [
            route._replace(mapping={**route.mapping, "patch": "bulk_partial_update"})
            # dict.get: an extra action's mapping is DRF's MethodMapper, whose .get() maps GET.
            if isinstance(route, Route) and dict.get(route.mapping, "get") == "list"
            else route
            for route in routes
        ]
