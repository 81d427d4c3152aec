import django_filters

from fabric.models import Fabric
from lightpath.api.filters import LightpathFilterSet, MultiValueIntegerFilter

from .models import WebhookDelivery, WebhookEndpoint, WebhookEvent


class WebhookEndpointFilterSet(LightpathFilterSet):
    class Meta:
        model = WebhookEndpoint
        fields = ["fabric", "name", "enabled", "created"]


class WebhookDeliveryFilterSet(LightpathFilterSet):
    fabric = django_filters.ModelMultipleChoiceFilter(
        field_name="endpoint__fabric", queryset=Fabric.objects.all(), label="The endpoint's fabric"
    )
    event_type = django_filters.MultipleChoiceFilter(
        field_name="event__kind", choices=WebhookEvent.Kind.choices, label="The event's type"
    )
    link = MultiValueIntegerFilter(field_name="event__link_id", label="The link the event is about")

    class Meta:
        model = WebhookDelivery
        fields = ["endpoint", "event", "state", "attempts", "created", "finished_at", "next_attempt_at"]
