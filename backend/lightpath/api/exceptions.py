from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler


class Conflict(exceptions.APIException):
    """409: the request is valid but the state of things refuses it; `detail` is the whole body
    (a dict with at least "detail", one sentence)."""

    status_code = 409
    default_detail = "The request conflicts with the current state."
    default_code = "conflict"

    def __init__(self, body: dict):
        super().__init__()
        self.detail = body  # as is: not DRF's ErrorDetail wrapping, which would nest lists


def exception_handler(exc, context):
    """DRF's handler, plus model-level validation and integrity errors as 400s, not 500s."""
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, IntegrityError):
        exc = exceptions.ValidationError({"non_field_errors": ["This change conflicts with existing data."]})
    return drf_exception_handler(exc, context)
