"""The shape of each job kind's result, declared once for OpenAPI (and so for the UI's types).

A kind's handler returns plain JSON; its app describes that JSON with a serializer in its own
`api/serializers.py`, registered here with `@result_of("kind.name")`. The serializer only describes:
results are stored and answered as the handler returned them (lightpath/tests/test_openapi_contract.py
checks real results against the description).

The Job's `result` is then `anyOf` the kinds' result components (or null): inside a result nothing
says which kind it is (the Job's `kind` beside it does), so there is no discriminator to declare, and
two kinds' shapes may both accept one result (hence anyOf, not oneOf). The UI reads a job of a known
kind (fetchJobOfKind) and names that kind's component. While some kind has no declaration yet, a
free-form object stands for it (lightpath/tests/test_openapi_contract.py lists those kinds).
"""

from typing import Any

from django.utils.module_loading import autodiscover_modules
from drf_spectacular.extensions import OpenApiSerializerExtension, OpenApiSerializerFieldExtension
from rest_framework import serializers

# A serializer class, or a PolymorphicProxySerializer for a kind whose result takes several shapes.
ResultShape = Any

_RESULTS: dict[str, ResultShape] = {}


def result_of(kind: str):
    """Declare the decorated serializer as the shape of `kind`'s result."""

    def register(serializer: ResultShape) -> ResultShape:
        if kind in _RESULTS:
            raise ValueError(f"job kind {kind!r} already has a result serializer: {component_name(_RESULTS[kind])}")
        _RESULTS[kind] = serializer
        return serializer

    return register


def result_serializers() -> dict[str, ResultShape]:
    """Kind -> result serializer, every app's declarations loaded."""
    autodiscover_modules("api.serializers")
    return dict(sorted(_RESULTS.items()))


def component_name(shape: ResultShape) -> str:
    """The OpenAPI component a result shape becomes."""
    return getattr(shape, "component_name", None) or shape.__name__.removesuffix("Serializer")


class JobResultSerializer(serializers.Serializer):
    """A succeeded job's result: the `JobResult` component, one of the kinds' shapes. Documentation
    only (GET /api/jobs/{id}/result/ answers the stored JSON)."""


class JobResultSerializerExtension(OpenApiSerializerExtension):
    target_class = JobResultSerializer

    def get_name(self, auto_schema, direction):
        return "JobResult"

    def map_serializer(self, auto_schema, direction):
        from ..registry import KINDS

        declared = result_serializers()
        shapes = [auto_schema.resolve_serializer(shape, direction).ref for shape in declared.values()]
        if set(KINDS) - set(declared):
            shapes.append({"type": "object", "additionalProperties": {}, "description": "A kind not described yet."})
        return {"anyOf": shapes, "description": "The result of a job, as its kind declares it."}


class JobResultField(serializers.JSONField):
    """A job's result, answered as stored; documented as the JobResult component (or null)."""


class JobResultFieldExtension(OpenApiSerializerFieldExtension):
    target_class = JobResultField

    def map_serializer_field(self, auto_schema, direction):
        ref = auto_schema.resolve_serializer(JobResultSerializer, direction).ref
        return {"allOf": [ref], "nullable": True, "description": "The kind's result (null until the job succeeds)."}
