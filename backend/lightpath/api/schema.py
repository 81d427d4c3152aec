"""The OpenAPI document says what the API answers, errors included (README "API: errors").

drf-spectacular documents the success answers a view declares. This AutoSchema adds, to every
operation, the error answers DRF and our bases give where they can occur, unless the view
declares its own shape for that status:

- 400 `ValidationError`: the operation takes a body or query parameters (field -> messages);
- 401 / 403 `Error`: the operation needs a signed-in user with a role (403 also: a CSRF refusal
  of a session-authenticated write);
- 404 `Error`: the path names an object;
- 413 / 415 `Error`: the operation takes a JSON body (too large, not JSON);
- 414 (an HTML page from gunicorn, before Django): the operation takes query parameters, and a URL
  longer than gunicorn's request line (4,094 bytes) is refused;
- 429 `Error`: the view throttles.

It also marks read-only fields nullable when their value comes through a relation that may be
empty (`created_by`, `assignee.username`, `blocking_tor.name`): such fields are null in answers.
"""

from django.core.exceptions import FieldDoesNotExist
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny


class ErrorSerializer(serializers.Serializer):
    """`{"detail"}`: one sentence saying what went wrong."""

    detail = serializers.CharField()


# A 409 refusing a change of state that is not the capacity guard's: `{"detail"}`.
CONFLICT = OpenApiResponse(ErrorSerializer, description="The object's state refuses this now; `detail` says why.")

VALIDATION_ERROR = {
    "description": "Every problem at once. An object: field name -> list of messages (`non_field_errors` "
    "for the whole body, nested objects for nested fields, `detail` for a body that is not JSON). A "
    "list of such objects when the body was a list (bulk), one per entry.",
    "oneOf": [
        {"type": "object", "additionalProperties": {}},
        {"type": "array", "items": {"type": "object", "additionalProperties": {}}},
    ],
}
DESCRIPTIONS = {
    "400": "Bad input: every problem, by field.",
    "401": "Not signed in (no or an unknown token or session).",
    "403": "Signed in without the role this needs (or a session write without its CSRF token).",
    "404": "No such object.",
    "413": "The body is larger than LIGHTPATH_MAX_BODY_BYTES.",
    "414": "The URL is longer than the web server takes (gunicorn's request line, 4,094 bytes): an HTML page.",
    "415": "The body is not JSON (Content-Type).",
    "429": "Too many attempts: wait for Retry-After seconds.",
}
BODY_METHODS = {"POST", "PUT", "PATCH"}


class LightpathAutoSchema(AutoSchema):
    def get_operation(self, path, path_regex, path_prefix, method, registry):
        # Lazy: export.py's @extend_schema loads this schema class while export.py is being imported.
        from .export import CSV_MEDIA_TYPE, CsvExportMixin

        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if (
            operation is not None
            and isinstance(self.view, CsvExportMixin)
            and getattr(self.view, "action", None) == "list"
        ):
            # `?format=csv` answers the same list as a CSV file (lightpath/api/export.py).
            operation["responses"]["200"]["content"][CSV_MEDIA_TYPE] = {
                "schema": {"type": "string", "description": "every matching row; a header line of column titles"}
            }
        if operation is not None:
            for status, component in self._error_statuses(operation).items():
                if status not in operation["responses"]:
                    media = "text/html" if status == "414" else "application/json"
                    operation["responses"][status] = {
                        "description": DESCRIPTIONS[status],
                        "content": {media: {"schema": component}},
                    }
        return operation

    def _error_statuses(self, operation: dict) -> dict[str, dict]:
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        invalid = self._component("ValidationError", VALIDATION_ERROR)
        parameters = operation.get("parameters", [])
        takes_body = self.method in BODY_METHODS and "requestBody" in operation
        statuses: dict[str, dict] = {}
        takes_query = any(parameter["in"] == "query" for parameter in parameters)
        if takes_body or takes_query:
            statuses["400"] = invalid
        if takes_query:
            statuses["414"] = {"type": "string"}
        permissions = self.view.get_permissions()
        authenticators = self.view.get_authenticators()
        signed_in = any(not isinstance(permission, AllowAny) for permission in permissions)
        if signed_in:
            statuses["401"] = error
        csrf = self.method not in {"GET", "HEAD", "OPTIONS"} and (
            any(isinstance(auth, SessionAuthentication) for auth in authenticators)
            or hasattr(type(self.view).dispatch, "__wrapped__")  # method_decorator(csrf_protect)
        )
        if signed_in or csrf:
            statuses["403"] = error
        if any(parameter["in"] == "path" for parameter in parameters):
            statuses["404"] = error
        if takes_body:
            statuses["413"] = error
            statuses["415"] = error
        if self.view.get_throttles():
            statuses["429"] = error
        return statuses

    def _component(self, name: str, schema: dict) -> dict:
        component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, object=name, schema=schema)
        self.registry.register_on_missing(component)
        return component.ref

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "response" and isinstance(serializer, serializers.ModelSerializer):
            # DRF renders every field of a model instance, `required=False` (a body may leave it
            # out) or not: in an answer none is optional.
            schema["required"] = sorted(schema.get("properties", {}))
        return schema

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        # A read-only field is no part of a body (COMPONENT_SPLIT_REQUEST): mapping it anyway would
        # register request twins of answer-only components (`JobResultRequest` and every result's).
        # (A field without a parent is one drf-spectacular builds itself to read a model field's type.)
        if direction == "request" and field.read_only and getattr(field, "parent", None) is not None:
            return None
        return super()._map_serializer_field(field, direction, bypass_extensions)

    def _get_serializer_field_meta(self, field, direction):
        meta = super()._get_serializer_field_meta(field, direction)
        if direction == "response" and field.read_only and _through_nullable_relation(field):
            meta["nullable"] = True
        return meta


def _through_nullable_relation(field: serializers.Field) -> bool:
    """Does the field's source pass through a relation that may be empty (a null foreign key)?"""
    parent = field.parent
    model = getattr(getattr(parent, "Meta", None), "model", None)
    for attr in getattr(field, "source_attrs", None) or []:
        if model is None:
            return False
        try:
            model_field = model._meta.get_field(attr)
        except FieldDoesNotExist:
            return False
        if model_field.one_to_many or model_field.many_to_many:
            return False  # a list (a ticket's steps), empty rather than null
        if model_field.is_relation and model_field.null:
            return True
        model = model_field.related_model if model_field.is_relation else None
    return False
