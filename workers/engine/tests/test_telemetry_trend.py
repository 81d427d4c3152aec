"""The optical trends and forecasts of lightpath_engine.TelemetryState (issue #19), end to end
through the Python API: synthetic series with a known slope against the closed-form crossing,
a restart through the checkpoint, lanes from COPY text and bad buffers."""

import itertools
import math

import numpy as np
import pytest

from lightpath_engine import TelemetryState

DAY_US = 86_400_000_000
HOUR_US = 3_600_000_000
LIMITS = (-10.0, -6.0, -10.0, -6.0)  # A Rx, A Tx, Z Rx, Z Tx low limits (dBm)


def new_state(**kwargs) -> TelemetryState:
    return TelemetryState(900.0, 2700.0, 1000, 1e-6, 1e-8, **kwargs)


def columns(link, side, time, rx, tx, bias, temperature):
    """The little-endian buffers apply_readings takes; rx, tx, bias are (rows, lanes)."""
    lanes = np.asarray(rx).shape[1]
    return (
        np.asarray(link).astype("<i8").tobytes(),
        np.asarray(side).astype("<u1").tobytes(),
        np.asarray(time).astype("<i8").tobytes(),
        lanes,
        np.asarray(rx, dtype="<f8").tobytes(),
        np.asarray(tx, dtype="<f8").tobytes(),
        np.asarray(bias, dtype="<f8").tobytes(),
        np.asarray(temperature, dtype="<f8").tobytes(),
    )


def decaying_transmitter(links, hours: int, slope_db_per_day: float, seed: int = 7):
    """Hourly polls of both ends of `links`: A's Tx falls `slope_db_per_day` from -1 dBm (its
    bias rising) and Z's Rx with it; everything else flat, with 0.05 dB of noise, a +-0.3 dB /
    +-1.5 degC diurnal swing and a bad poll (+5 dB, or no value) now and then."""
    rng = np.random.default_rng(seed)
    t = np.arange(hours) * HOUR_US
    days = t / DAY_US
    swing = np.sin(2 * math.pi * days)
    rows = []
    for link in links:
        for side in (0, 1):
            tx = -1.0 + 0.3 * swing + rng.normal(0, 0.05, hours)
            rx = -3.0 + 0.3 * swing + rng.normal(0, 0.05, hours)
            bias = 30.0 + rng.normal(0, 0.1, hours)
            if side == 0:
                tx = tx + slope_db_per_day * days
                bias = bias + 1.5 * days
            else:
                rx = rx + slope_db_per_day * days
            spikes = rng.random(hours)
            rx[spikes > 0.99] += 5.0
            tx[spikes < 0.01] = np.nan
            rows.append((link, side, t, rx, tx, bias, 40.0 + 1.5 * swing))
    # Rows in time order per end: here end by end.
    link = np.concatenate([np.full(hours, r[0]) for r in rows])
    side = np.concatenate([np.full(hours, r[1]) for r in rows])
    time = np.concatenate([r[2] for r in rows])
    stack = lambda k: np.concatenate([r[k] for r in rows])[:, None]  # noqa: E731
    return link, side, time, stack(3), stack(4), stack(5), np.concatenate([r[6] for r in rows])


def test_a_known_slope_forecasts_the_closed_form_crossing_within_its_interval():
    state = new_state()
    hours = 4 * 24 + 18
    data = decaying_transmitter([5], hours, -0.5)
    assert state.apply_readings(*columns(*data)) == 2 * hours
    now = hours * HOUR_US
    [forecast] = state.forecasts([5], [LIMITS], now, 7 * 86400.0, 0.8)
    # A's Tx: -1 - 0.5 t reaches -6 dBm at t = 10 days (the diurnal swing's mean is 0).
    closed_form = 10 * DAY_US
    assert forecast["earliest_us"] <= closed_form <= forecast["latest_us"]
    assert abs(forecast["crossing_us"] - closed_form) < 0.5 * DAY_US
    assert forecast["earliest_us"] <= forecast["crossing_us"] <= forecast["latest_us"]
    assert (forecast["side"], forecast["quantity"], forecast["lane"]) == (False, "tx", 0)
    assert forecast["slope_db_per_day"] == pytest.approx(-0.5, abs=0.05)
    assert forecast["limit_dbm"] == -6.0
    # 5.25 days from now, inside the 7-day horizon, under every pair slope.
    assert forecast["at_risk"] and forecast["confidence"] >= 0.8
    assert (forecast["cause"], forecast["cause_side"]) == ("decaying_transmitter", False)
    # With a 3-day horizon it is reported (within 4 horizons) but not at risk.
    [later] = state.forecasts([5], [LIMITS], now, 3 * 86400.0, 0.8)
    assert not later["at_risk"] and later["confidence"] < 0.8
    # Without a Tx limit at A, Z's Rx is what crosses: -3 - 0.5 t = -10 at day 14.
    [rx] = state.forecasts([5], [(-10.0, None, -10.0, -6.0)], now, 7 * 86400.0, 0.8)
    assert (rx["side"], rx["quantity"]) == (True, "rx")
    assert abs(rx["crossing_us"] - 14 * DAY_US) < DAY_US
    assert not rx["at_risk"]


def test_a_flat_link_with_swing_and_bad_polls_is_not_reported():
    state = new_state()
    hours = 6 * 24
    state.apply_readings(*columns(*decaying_transmitter([8], hours, 0.0, seed=3)))
    assert state.forecasts([8], [LIMITS], hours * HOUR_US, 7 * 86400.0, 0.8) == []
    trend = state.trend(8, False)
    assert trend is not None
    [tx] = trend["tx"]
    assert len(tx["buckets"]) == 16
    assert tx["slope_per_day"] == pytest.approx(0.0, abs=0.03)
    assert tx["slope_low"] <= tx["slope_per_day"] <= tx["slope_high"]
    assert tx["noise"] < 0.2 and tx["step"] is None and not tx["dark"]
    ends = [end for end, _ in tx["buckets"]]
    assert ends == sorted(ends) and all(b - a == 6 * HOUR_US for a, b in itertools.pairwise(ends))
    assert ends[-1] <= hours * HOUR_US < ends[-1] + 6 * HOUR_US
    assert state.trend(8, True)["temperature"][0]["slope_per_day"] == pytest.approx(0.0, abs=0.05)
    assert state.trend(99, False) is None


def test_a_restarted_state_gives_the_same_forecasts():
    links = [3, 4, 77]
    hours = 5 * 24
    data = decaying_transmitter(links, hours, -0.8, seed=11)
    order = np.lexsort((data[2],))  # by time: every end's rows interleaved
    data = tuple(d[order] for d in data)
    cut = int(len(order) * 0.6)
    live = new_state()
    live.apply_readings(*columns(*(d[:cut] for d in data)))
    restarted = new_state()
    restarted.restore(live.checkpoint())
    for state in (live, restarted):
        state.apply_readings(*columns(*(d[cut:] for d in data)))
    assert restarted.trend_changed_links() == live.trend_changed_links()
    args = (links, [LIMITS] * 3, hours * HOUR_US, 7 * 86400.0, 0.8)
    forecasts = live.forecasts(*args)
    assert [f["link"] for f in forecasts] == links
    assert restarted.forecasts(*args) == forecasts
    for link in links:
        assert restarted.trend(link, True) == live.trend(link, True)
    assert restarted.checkpoint() == live.checkpoint()
    # A state without trends restores a checkpoint with them as none at all.
    off = new_state(trends=False)
    off.restore(live.checkpoint())
    assert off.forecasts(*args) == [] and off.trend(3, False) is None


def test_a_split_checkpoint_rewrites_the_segments_where_a_bucket_closed_and_restores():
    links = list(range(1, 41))
    hours = 5 * 24
    data = decaying_transmitter(links, hours, -0.8, seed=5)
    order = np.lexsort((data[2],))
    data = tuple(d[order] for d in data)
    live = new_state()
    live.apply_readings(*columns(*(d[: len(order) - len(links) * 2] for d in data)))
    stored = {}
    first = live.checkpoint()
    data_1, segments = live.checkpoint_split(1)
    stored.update(segments)
    assert len(segments) == len({s for s, _ in segments}) > 1
    # The last hour: only the links whose bucket closed in it have their segments rewritten.
    live.apply_readings(*columns(*(d[len(order) - len(links) * 2 :] for d in data)))
    data_2, rewritten = live.checkpoint_split(2)
    assert 0 < len(rewritten) < len(segments) and len(live.trend_changed_links()) < len(links)
    restarted = new_state()
    # Before the second run's rows are stored, its bytes need segments of run 2 that are not there.
    with pytest.raises(
        ValueError, match=r"trend segment \d+ holds segment \d+ of run 1, the checkpoint needs that of run 2"
    ):
        restarted.restore(data_2, list(stored.items()))
    stored.update(rewritten)
    restarted.restore(data_2, list(stored.items()))
    args = (links, [LIMITS] * len(links), hours * HOUR_US, 7 * 86400.0, 0.8)
    assert restarted.forecasts(*args) == live.forecasts(*args) != []
    assert restarted.checkpoint() == live.checkpoint()
    # The first run's bytes with its own segments are still the first run's state.
    earlier = new_state()
    earlier.restore(data_1, list(segments))
    assert earlier.checkpoint() == first != live.checkpoint()


def test_only_new_rows_are_taken_and_closed_buckets_name_their_links():
    state = new_state()
    nan = math.nan
    one = columns([1, 1], [0, 0], [10, 20], [[-3.0], [-3.0]], [[nan], [nan]], [[nan], [nan]], [nan, nan])
    assert state.apply_readings(*one) == 2
    assert state.trend_changed_links() == []
    # Again, and older: ignored.
    assert state.apply_readings(*one) == 0
    later = columns([1, 2], [0, 1], [2 * DAY_US, 0], [[-3.0], [-3.0]], [[nan], [nan]], [[nan], [nan]], [nan, nan])
    assert state.apply_readings(*later) == 2
    assert state.trend_changed_links() == [1]


def bent_fiber(link: int, hours: int, steps: list[tuple[float, float]], rx_a: float, rx_z: float):
    """Hourly polls of both ends of `link`, 4 lanes, with 0.05 dB of noise: both ends' Rx step
    down by `size` dB after `day` for each (day, size) of `steps`."""
    rng = np.random.default_rng(5)
    t = np.arange(hours) * HOUR_US
    drop = sum((np.where(t / DAY_US > day, size, 0.0) for day, size in steps), np.zeros(hours))
    offsets = np.array([0.0, -0.05, -0.4, -0.1])  # lane 2 is the weakest
    rows = []
    for side, base in ((0, rx_a), (1, rx_z)):
        rx = base - drop[:, None] + offsets + rng.normal(0, 0.05, (hours, 4))
        rows.append((side, rx, np.full((hours, 4), -5.0), np.full((hours, 4), 37.0)))
    return columns(
        [link] * 2 * hours,
        np.repeat([0, 1], hours),
        np.concatenate([t, t]),
        np.concatenate([r[1] for r in rows]),
        np.concatenate([r[2] for r in rows]),
        np.concatenate([r[3] for r in rows]),
        np.full(2 * hours, 45.0),
    )


def test_a_link_whose_readings_stepped_below_the_limit_keeps_an_at_risk_forecast():
    # The trial's bent fiber (trial27 item 15): both ends' Rx step down 1.5 dB on day 1, then
    # 1 dB more on day 4.3, taking the weakest lanes below -12.66 dBm. The fitted level lags the
    # second step and the slope does not fall, yet the readings are under the limit: at risk now.
    limits = [(-12.66, -8.0, -12.66, -8.0)]
    state = new_state()
    hours = 5 * 24
    state.apply_readings(*bent_fiber(21, hours, [(1.0, 1.5), (4.3, 1.0)], -9.9, -9.8))
    now = hours * HOUR_US
    lane = state.trend(21, False)["rx"][2]
    assert lane["level"] > -12.66 and lane["buckets"][-1][1] < -12.66
    [forecast] = state.forecasts([21], limits, now, 7 * 86400.0, 0.8)
    assert forecast["at_risk"] and forecast["confidence"] == 1.0
    assert forecast["crossing_us"] == forecast["earliest_us"] == forecast["latest_us"] == now
    assert (forecast["quantity"], forecast["lane"]) == ("rx", 2)
    assert forecast["level_dbm"] < -12.66
    assert (forecast["cause"], forecast["cause_side"]) == ("bent_fiber", None)
    # A day and a half of history (no slope yet) already under the limit: at risk now too.
    short = new_state()
    short.apply_readings(*bent_fiber(22, 36, [], -12.5, -10.0))
    assert short.trend(22, False)["rx"][2]["slope_per_day"] is None
    [forecast] = short.forecasts([22], [limits[0]], 36 * HOUR_US, 7 * 86400.0, 0.8)
    assert forecast["at_risk"] and forecast["crossing_us"] == 36 * HOUR_US
    assert (forecast["side"], forecast["quantity"], forecast["lane"]) == (False, "rx", 2)


def test_lanes_from_copy_text_feed_the_trends_and_a_dark_lane_is_a_loose_transceiver():
    state = new_state()
    lines = []
    for k in range(24):
        time = k * 5 * 60_000_000
        lane = "NULL" if k >= 22 else "-3.3"
        for side, rx in (("f", f"{{-3.1,{lane},-3.2,-3.0}}"), ("t", "{-3.0,-3.1,-3.2,-3.0}")):
            readings = "-3.1\t-3.3\t-1.0\t-1.0\t30\t40\t3.3"
            lines.append(
                f"{k}\t9\t{side}\t{time}\t" + "\t".join(["\\N"] * 5) + f"\t{readings}\tf\tf\t1\t{rx}\t\\N\t\\N"
            )
    assert state.apply_copy("\n".join(lines).encode() + b"\n") == (48, 0)
    [lane_rx] = [state.trend(9, False)["rx"][1]]
    assert lane_rx["dark"]
    assert len(state.trend(9, False)["rx"]) == 4 and len(state.trend(9, True)["tx"]) == 1
    [forecast] = state.forecasts([9], [LIMITS], 2 * HOUR_US, 7 * 86400.0, 0.8)
    assert forecast["at_risk"] and forecast["confidence"] == 1.0
    assert forecast["crossing_us"] == 2 * HOUR_US
    assert (forecast["side"], forecast["quantity"], forecast["lane"]) == (False, "rx", 1)
    assert (forecast["cause"], forecast["cause_side"]) == ("loose_transceiver", False)
    assert forecast["level_dbm"] == -40.0


def test_bad_buffers_and_settings_are_refused_with_a_clear_message():
    state = new_state()
    good = list(
        columns([1, 2], [0, 1], [0, 1], [[-3.0, -3.0], [-3.0, -3.0]], [[1.0] * 2] * 2, [[30.0] * 2] * 2, [40.0, 40.0])
    )
    for index, value, message in [
        (1, b"\x00", r"side has 1 bytes, expected 2"),
        (2, good[2][:8], r"time has 8 bytes, expected 16"),
        (4, good[4][:-8], r"rx has 24 bytes, expected 32 \(2 rows of 16 bytes\)"),
        (7, good[7] + b"\x00", r"temperature has 17 bytes"),
        (0, good[0][:-1], r"link has 15 bytes, not a whole number of 8-byte integers"),
        (3, 0, r"lanes must be at least 1"),
        (1, b"\x00\x02", r"side must be 0 \(A\) or 1 \(Z\), got 2"),
    ]:
        args = list(good)
        args[index] = value
        with pytest.raises(ValueError, match=message):
            state.apply_readings(*args)
    assert state.trend(1, False) is None
    with pytest.raises(ValueError, match="trend_bucket_s must divide a day"):
        new_state(trend_bucket_s=7000.0)
    with pytest.raises(ValueError, match="trend_buckets"):
        new_state(trend_buckets=4)
    with pytest.raises(ValueError, match="limits has 0 values, expected 1"):
        state.forecasts([1], [], 0, 86400.0, 0.8)
