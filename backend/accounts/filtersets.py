import django_filters
from django.contrib.auth import get_user_model
from django.db.models import Q

from lightpath.api.filters import LightpathFilterSet

from .roles import ROLES


class UserFilterSet(LightpathFilterSet):
    role = django_filters.MultipleChoiceFilter(
        choices=[(role, role) for role in ROLES],
        method="filter_role",
        label="Holds any of these roles (repeat the parameter); superusers hold every role",
    )

    class Meta:
        model = get_user_model()
        fields = ["username"]

    def filter_role(self, queryset, name, value):
        if not value:
            return queryset
        holders = get_user_model().objects.filter(Q(groups__name__in=value) | Q(is_superuser=True))
        return queryset.filter(pk__in=holders.values("pk"))
