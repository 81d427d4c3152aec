"""The five roles, stored as Django groups of the same name.

viewer      reads everything
technician  + records transceiver work (reseats, replacements)
planner     + builds fabrics (import, create), edits the transceiver catalog
operator    + changes link admin state and capacity constraints
admin       everything, including deleting fabrics
"""

VIEWER = "viewer"
TECHNICIAN = "technician"
PLANNER = "planner"
OPERATOR = "operator"
ADMIN = "admin"
ROLES = (VIEWER, TECHNICIAN, PLANNER, OPERATOR, ADMIN)


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
