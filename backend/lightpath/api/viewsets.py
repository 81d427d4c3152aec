from django.db import transaction
from rest_framework import generics, viewsets

from audit import services as audit


class BriefModeMixin(generics.GenericAPIView):
    """`?brief=1` switches the serializer to its Meta.brief_fields (NetBox's brief mode)."""

    def get_serializer_context(self):
        brief = self.request.query_params.get("brief", "").lower() in {"1", "true", "yes"}
        return {**super().get_serializer_context(), "brief": brief}


class AuditedModelViewSet(BriefModeMixin, viewsets.ModelViewSet):
    """CRUD viewset that writes an audit row (who, what, before, after) for every change.

    Bulk create: POSTing a JSON list creates every object or none. A view whose domain has its
    own way to save or delete overrides `save_update` or `delete_instance`; auditing stays here.
    """

    def get_serializer(self, *args, **kwargs):
        if isinstance(kwargs.get("data"), list):
            kwargs["many"] = True
        return super().get_serializer(*args, **kwargs)

    @transaction.atomic
    def perform_create(self, serializer):
        instances = serializer.save()
        for instance in instances if isinstance(instances, list) else [instances]:
            audit.record(self.request.user, audit.CREATE, instance)

    @transaction.atomic
    def perform_update(self, serializer):
        before = audit.snapshot(serializer.instance)
        instance = self.save_update(serializer)
        audit.record(self.request.user, audit.UPDATE, instance, before=before)

    @transaction.atomic
    def perform_destroy(self, instance):
        audit.record(self.request.user, audit.DELETE, instance, before=audit.snapshot(instance))
        self.delete_instance(instance)

    def save_update(self, serializer):
        return serializer.save()

    def delete_instance(self, instance) -> None:
        instance.delete()
