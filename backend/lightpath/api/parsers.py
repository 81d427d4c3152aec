from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import BaseParser, JSONParser


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "Request body too large."
    default_code = "payload_too_large"


class BoundedJSONParser(JSONParser):
    """JSON parser that refuses bodies above LIGHTPATH_MAX_BODY_BYTES before reading them.

    DRF parsers read the raw stream, which Django's DATA_UPLOAD_MAX_MEMORY_SIZE does not guard.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        check_length(parser_context)
        return super().parse(stream, media_type, parser_context)


def check_length(parser_context) -> None:
    """Refuse a body above LIGHTPATH_MAX_BODY_BYTES by its Content-Length, before reading it."""
    request = (parser_context or {}).get("request")
    limit = settings.LIGHTPATH_MAX_BODY_BYTES
    if request is not None:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise exceptions.ParseError("Invalid Content-Length header.") from None
        if length > limit:
            raise PayloadTooLarge(f"Request body of {length} bytes exceeds the limit of {limit} bytes.")


class RawBodyParser(BaseParser):
    """Hands the view the body's bytes (bounded like JSON), for views that parse formats
    themselves; subclasses name the media type they accept."""

    def parse(self, stream, media_type=None, parser_context=None):
        check_length(parser_context)
        return stream.read() if stream is not None else b""


def raw_parser(accepted: str) -> type[RawBodyParser]:
    return type(f"RawBodyParser[{accepted}]", (RawBodyParser,), {"media_type": accepted})
