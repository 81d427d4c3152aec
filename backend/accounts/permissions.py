from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission

from .roles import ADMIN, user_roles


class RolePermission(BasePermission):
    """Every endpoint's permission: any role may read; a write needs one of the view's
    `write_roles` (a set, or a dict from viewset action to set, with "*" as fallback;
    partial_update follows update).
    Admin may always write. Anonymous requests get 401, users without a role 403."""

    message = "Your role does not allow this action."

    def has_permission(self, request, view) -> bool:
        roles = user_roles(request.user)
        if not roles:
            return False
        if request.method in SAFE_METHODS:
            return True
        return ADMIN in roles or bool(roles & required_write_roles(view))


def required_write_roles(view) -> frozenset[str]:
    rules: Any = getattr(view, "write_roles", frozenset())
    if isinstance(rules, dict):
        action = getattr(view, "action", None)
        if action == "partial_update" and action not in rules:
            action = "update"  # PATCH follows PUT unless a view says otherwise
        rules = rules.get(action, rules.get("*", frozenset()))
    return frozenset(rules)
