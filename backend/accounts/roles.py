"""The roles, stored as Django groups of the same name.

Every role reads everything. What each may write is declared by each view's `write_roles`
(see accounts.permissions); in short:
viewer      nothing
technician  transceivers (reseats, replacements)
planner     fabrics, switches, new links, the transceiver catalog
operator    fabrics, switches, new links, link admin state, transceivers
admin       everything, including deletions
collector   telemetry batches only (the account a poller or gNMI collector pushes with)
"""

VIEWER = "viewer"
TECHNICIAN = "technician"
PLANNER = "planner"
OPERATOR = "operator"
ADMIN = "admin"
COLLECTOR = "collector"
ROLES = (VIEWER, TECHNICIAN, PLANNER, OPERATOR, ADMIN, COLLECTOR)


def user_roles(user) -> frozenset[str]:
    if not user or not user.is_authenticated:
        return frozenset()
    cached = getattr(user, "_lightpath_roles", None)
    if cached is None:
        if user.is_superuser:
            cached = frozenset(ROLES)
        else:
            cached = frozenset(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
        user._lightpath_roles = cached
    return cached
