from django.db import transaction
from rest_framework import generics, viewsets

from audit import services as audit
from lightpath.problems import query_flag


class BriefModeMixin(generics.GenericAPIView):
    """`?brief=1` switches the serializer to its Meta.brief_fields (NetBox's brief mode)."""

    def get_serializer_context(self):
        brief = query_flag(self.request.query_params, "brief")
        return {**super().get_serializer_context(), "brief": brief}


class AuditedModelViewSet(BriefModeMixin, viewsets.ModelViewSet):
    """CRUD viewset that writes an audit row (who, what, before, after) for every change.

    Bulk create: POSTing a JSON list creates every object or none. A view whose domain has its
    own way to save or delete overrides `save_update` or `delete_instance`; auditing stays here.
    """

    json_list_actions: tuple[str, ...] = ("create", "bulk_partial_update")  # BoundedJSONParser

    def get_serializer(self, *args, **kwargs):
        if isinstance(kwargs.get("data"), list):
            kwargs["many"] = True
        return super().get_serializer(*args, **kwargs)

    @transaction.atomic
    def perform_create(self, serializer):
        instances = serializer.save()
        for instance in instances if isinstance(instances, list) else [instances]:
            audit.record(self.request.user, audit.CREATE, instance)
        serializer.instance = self._as_read(instances)

    @transaction.atomic
    def perform_update(self, serializer):
        before = audit.snapshot(serializer.instance)
        instance = self.save_update(serializer)
        audit.record(self.request.user, audit.UPDATE, instance, before=before)
        serializer.instance = self._as_read(instance)

    def _as_read(self, saved):
        """The saved object(s) as the view's queryset reads them: the answer to a write carries
        the same fields as a GET (counts and flags the queryset annotates, e.g. a fabric's
        switch_count), as the schema declares."""
        objects = saved if isinstance(saved, list) else [saved]
        read = self.get_queryset().in_bulk([obj.pk for obj in objects])
        fresh = [read.get(obj.pk, obj) for obj in objects]
        return fresh if isinstance(saved, list) else fresh[0]

    @transaction.atomic
    def perform_destroy(self, instance):
        audit.record(self.request.user, audit.DELETE, instance, before=audit.snapshot(instance))
        self.delete_instance(instance)

    def save_update(self, serializer):
        return serializer.save()

    def delete_instance(self, instance) -> None:
        instance.delete()
