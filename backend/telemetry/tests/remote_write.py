"""Remote-write bodies for tests and benchmarks, built as a sender builds them: a protobuf
WriteRequest of (labels, samples) series, snappy-compressed."""

from collections.abc import Iterable, Mapping

from telemetry.formats._remote_write import WriteRequest, compress

CONTENT_TYPE = "application/x-protobuf"
HEADERS = {"Content-Encoding": "snappy", "X-Prometheus-Remote-Write-Version": "0.1.0"}
DJANGO_HEADERS = {"HTTP_CONTENT_ENCODING": "snappy", "HTTP_X_PROMETHEUS_REMOTE_WRITE_VERSION": "0.1.0"}

Series = tuple[Mapping[str, str], Iterable[tuple[float, int]]]


def write_request(series: Iterable[Series]) -> bytes:
    """`series`: (labels with `__name__`, [(value, timestamp in ms), ...]) each."""
    request = WriteRequest()
    for labels, samples in series:
        added = request.timeseries.add()
        for name, value in labels.items():
            added.labels.add(name=name, value=value)
        for value, timestamp in samples:
            added.samples.add(value=value, timestamp=timestamp)
    return compress(request)
