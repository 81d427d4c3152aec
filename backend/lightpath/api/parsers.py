from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import BaseParser, JSONParser


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "Request body too large."
    default_code = "payload_too_large"


class BoundedJSONParser(JSONParser):
    """JSON parser that refuses bodies above LIGHTPATH_MAX_BODY_BYTES before reading them, and
    bodies of the wrong JSON type: an object everywhere, or a list of them where the view's
    action takes one (`json_list_actions`, bulk changes). Views then always get what they expect.

    DRF parsers read the raw stream, which Django's DATA_UPLOAD_MAX_MEMORY_SIZE does not guard.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        check_length(parser_context)
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # nested deeper than Python's recursion limit: a client's body, not our fault
            raise exceptions.ParseError("JSON parse error - nested too deeply.") from None
        view = (parser_context or {}).get("view")
        takes_list = getattr(view, "action", None) in getattr(view, "json_list_actions", ())
        if isinstance(data, dict) or (takes_list and isinstance(data, list)):
            return data
        expected = "a JSON object or a list of objects" if takes_list else "a JSON object"
        raise exceptions.ParseError(f"Expected {expected}, got {_json_type(data)}.")


def _json_type(value) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


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
