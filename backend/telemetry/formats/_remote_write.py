"""Prometheus remote write 1.0 (docs/collectors.md, "The receiver"): a snappy-compressed
(block format) protobuf `prometheus.WriteRequest`, read with the text format's metric mapping.

The messages are declared here from Prometheus's prompb/types.proto and remote.proto (only the
fields we read; exemplars, histograms and metadata stay unknown fields and are ignored), so there
is no generated module to keep in step.
"""

from __future__ import annotations

import struct
from datetime import datetime
from typing import Any

import cramjam
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

from ._common import COUNTER, FLOAT_LANES, OPER, POWER_LANES, Bad, FormatError, Grouper, Parsed, from_epoch
from ._prometheus import LANE_LABELS, METRICS, identify, value_of

MEDIA_TYPE = "application/x-protobuf"
# Prometheus marks a series that went away with this NaN ("staleness marker"); it is no reading.
STALE_NAN = 0x7FF0000000000002


def _declare_messages() -> Any:
    """The WriteRequest message class, from a descriptor built here (prompb's field numbers)."""
    proto = descriptor_pb2.FieldDescriptorProto
    file = descriptor_pb2.FileDescriptorProto(name="lightpath/prompb_remote.proto", package="prometheus")
    file.syntax = "proto3"

    def message(name: str, *fields: tuple[str, int, int, str | None]) -> None:
        declared = file.message_type.add(name=name)
        for field_name, number, kind, type_name in fields:
            added = declared.field.add(name=field_name, number=number, type=kind, label=proto.LABEL_OPTIONAL)
            if type_name is not None:  # the messages' lists; scalars are single
                added.label, added.type_name = proto.LABEL_REPEATED, type_name

    message("Label", ("name", 1, proto.TYPE_STRING, None), ("value", 2, proto.TYPE_STRING, None))
    message("Sample", ("value", 1, proto.TYPE_DOUBLE, None), ("timestamp", 2, proto.TYPE_INT64, None))
    message(
        "TimeSeries",
        ("labels", 1, proto.TYPE_MESSAGE, ".prometheus.Label"),
        ("samples", 2, proto.TYPE_MESSAGE, ".prometheus.Sample"),
    )
    message("WriteRequest", ("timeseries", 1, proto.TYPE_MESSAGE, ".prometheus.TimeSeries"))
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("prometheus.WriteRequest"))


WriteRequest = _declare_messages()


def compress(write_request: Any) -> bytes:
    """A WriteRequest as a sender puts it on the wire (for tests, benchmarks and scripts)."""
    return bytes(cramjam.snappy.compress_raw(write_request.SerializeToString()))


def _uncompressed_length(body: bytes) -> int | None:
    """The length a snappy block announces in its varint preamble (None: no valid preamble)."""
    length = shift = 0
    for position, byte in enumerate(body[:5]):
        length |= (byte & 0x7F) << shift
        if byte < 0x80:
            return length if position < 4 or byte < 0x10 else None
        shift += 7
    return None


def parse_remote_write(body: bytes, *, max_bytes: int) -> Parsed:
    """Samples of a WriteRequest; raises FormatError when the body is not one (or announces more
    than `max_bytes` once uncompressed, so a small body cannot make us allocate gigabytes)."""
    length = _uncompressed_length(body)
    if length is None:
        raise FormatError("the body is not snappy-compressed (remote write sends the snappy block format)")
    if length > max_bytes:
        raise FormatError(f"the body would be {length} bytes uncompressed, above the limit of {max_bytes}")
    try:
        raw = bytes(cramjam.snappy.decompress_raw(body))
    except cramjam.DecompressionError as exc:
        reason = f"the body is not snappy-compressed (remote write sends the snappy block format): {exc}"
        raise FormatError(reason) from None
    try:
        request = WriteRequest.FromString(raw)
    except DecodeError:
        raise FormatError("the uncompressed body is not a protobuf prometheus.WriteRequest") from None
    return _samples(request)


def _samples(request: Any) -> Parsed:
    parsed = Parsed()
    group = Grouper(parsed)
    times: dict[int, datetime] = {}
    pack = struct.Struct("<d").pack
    unpack_bits = struct.Struct("<Q").unpack
    # The labels of a link end (and lane) recur on every metric of it: each set is identified once.
    ends: dict[tuple[tuple[str, str], ...], tuple[str, str, int | Bad | None] | Bad] = {}
    for number, series in enumerate(request.timeseries):
        where = {"series": number}
        pairs = [(label.name, label.value) for label in series.labels]
        labels = dict(pairs)
        target = METRICS.get(labels.pop("__name__", ""))
        if target is None:
            parsed.skipped += len(series.samples)
            continue
        field_name, kind = target
        if len(labels) + 1 != len(pairs):
            repeated = sorted(name for name, _ in pairs if sum(1 for other, _ in pairs if other == name) > 1)
            group.fail(None, None, f"series {number}: label {repeated[0]} appears twice", where)
            continue
        end_key = tuple(labels.items())
        end = ends.get(end_key)
        if end is None:
            end = ends[end_key] = identify(labels)
        if type(end) is Bad:
            group.fail(None, end.field or field_name, f"series {number}: {end.reason}", where)
            continue
        switch, port, lane = end  # type: ignore[misc]
        if kind in (POWER_LANES, FLOAT_LANES):
            if type(lane) is not int:
                reason = lane.reason if type(lane) is Bad else f"no lane label (one of {', '.join(LANE_LABELS)})"
                group.fail(None, field_name, f"series {number}: {reason}", where)
                continue
        else:
            lane = None
        plain = kind != COUNTER and kind != OPER  # a finite value is the reading as it is
        for sample in series.samples:
            value, stamp = sample.value, sample.timestamp
            if value != value and unpack_bits(pack(value))[0] == STALE_NAN:
                parsed.skipped += 1  # the series ended (target gone): nothing was measured
                continue
            moment = times.get(stamp)
            if moment is None:
                try:
                    moment = times[stamp] = from_epoch(stamp, "ms", stamp)
                except Bad as bad:
                    group.fail(None, "time", f"series {number}: {bad.reason}", where)
                    continue
            key = (switch, port, moment)
            if plain and value - value == 0:
                reading: Any = value  # the common reading, without a call
            else:
                try:
                    reading = value_of(value, kind, value)
                except Bad as bad:
                    group.fail(key, field_name, bad.reason, where)
                    continue
            group.put(key, field_name, reading, lane, where)
    group.finish()
    return parsed
