"""The CSV exports' Fabric column: the fabric's name, as every list page shows it, not its id."""

from lightpath.api.export import CsvColumn

from ..models import Fabric


def fabric_names() -> dict[int, str]:
    # One query per export: fabrics are few, rows may be millions.
    return dict(Fabric.objects.values_list("pk", "name"))


FABRIC_COLUMN = CsvColumn("Fabric", "fabric", names=fabric_names)
