import logging

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, InterfaceError, OperationalError
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class Conflict(exceptions.APIException):
    """409: the request is valid but the state of things refuses it; `detail` is the whole body
    (a dict with at least "detail", one sentence)."""

    status_code = 409
    default_detail = "The request conflicts with the current state."
    default_code = "conflict"

    def __init__(self, body: dict):
        super().__init__()
        self.detail = body  # as is: not DRF's ErrorDetail wrapping, which would nest lists


class Unavailable(exceptions.APIException):
    """503: the database could not answer (out of reach during a restart or a failover, or a lock
    or statement timeout); the client may try again."""

    status_code = 503
    default_detail = "The database could not answer; try again in a few seconds."
    default_code = "unavailable"


def exception_handler(exc, context):
    """DRF's handler, plus model-level validation and integrity errors as 400s, not 500s, and a
    lost database as a 503 with Retry-After (nothing the client did)."""
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.warning("the database could not answer %s: %s", context.get("request"), exc)
        response = drf_exception_handler(Unavailable(), context)
        if response is not None:
            response["Retry-After"] = "5"
        return response
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, IntegrityError):
        exc = exceptions.ValidationError({"non_field_errors": ["This change conflicts with existing data."]})
    return drf_exception_handler(exc, context)
