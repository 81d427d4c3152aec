from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from .roles import ROLES

DEMO_PASSWORD = "lightpath-demo"  # noqa: S105  (demo mode only; create_demo_users refuses otherwise)


@transaction.atomic
def create_demo_users() -> list[str]:
    """One user per role, named after the role. Refused outside demo mode so that these
    well-known credentials can never exist on a real installation."""
    if not settings.LIGHTPATH_DEMO:
        raise ImproperlyConfigured("demo users exist only in demo mode (LIGHTPATH_DEMO=1)")
    user_model = get_user_model()
    for role in ROLES:
        group, _ = Group.objects.get_or_create(name=role)
        user, _ = user_model.objects.get_or_create(username=role)
        user.set_password(DEMO_PASSWORD)
        user.save()
        user.groups.set([group])
    return list(ROLES)
