"""Fabric domain logic: topology rules, the interchange document, capacity."""

from .capacity import fabric_capacity
from .corrupting import corrupting_in_service
from .interchange import (
    FORMAT,
    InterchangeError,
    document_error,
    export_document,
    export_links_csv,
    import_document,
    parse_links_csv,
    validate_document,
)
from .topology import check_link_ends, delete_fabric, fabric_topology, update_link

__all__ = [
    "FORMAT",
    "InterchangeError",
    "check_link_ends",
    "corrupting_in_service",
    "delete_fabric",
    "document_error",
    "export_document",
    "export_links_csv",
    "fabric_capacity",
    "fabric_topology",
    "import_document",
    "parse_links_csv",
    "update_link",
    "validate_document",
]
