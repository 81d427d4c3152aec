"""Interchange documents the tests share (importable: pytest's conftest modules are not)."""

# A two-pod, three-tier fabric small enough to reason about by hand: each ToR has two
# fabric uplinks, each fabric switch two spine uplinks, so every ToR has 4 up-paths.
SMALL_DOCUMENT = {
    "name": "small",
    "tiers": ["tor", "fabric", "spine"],
    "capacity_constraint": 0.75,
    "switches": [
        {"name": "t0", "tier": 0, "pod": 0},
        {"name": "t1", "tier": 0, "pod": 0},
        {"name": "t2", "tier": 0, "pod": 1},
        {"name": "f0", "tier": 1, "pod": 0},
        {"name": "f1", "tier": 1, "pod": 0},
        {"name": "f2", "tier": 1, "pod": 1},
        {"name": "f3", "tier": 1, "pod": 1},
        {"name": "s0", "tier": 2, "plane": 0},
        {"name": "s1", "tier": 2, "plane": 1},
    ],
    "links": [
        {
            "a": "t0",
            "a_port": "up0",
            "b": "f0",
            "b_port": "d0",
            "length_m": 10,
            "fiber": "MMF",
            "speed_gbps": 100,
            "transceiver_model": "100G-SR4",
        },
        {"a": "t0", "a_port": "up1", "b": "f1", "b_port": "d0", "length_m": 12},
        {"a": "t1", "a_port": "up0", "b": "f0", "b_port": "d1"},
        {"a": "t1", "a_port": "up1", "b": "f1", "b_port": "d1"},
        {"a": "t2", "a_port": "up0", "b": "f2", "b_port": "d0"},
        {"a": "t2", "a_port": "up1", "b": "f3", "b_port": "d0"},
        # written top-down on purpose: the importer stores the lower tier as side A
        {"a": "s0", "a_port": "p0", "b": "f0", "b_port": "u0"},
        {"a": "f0", "a_port": "u1", "b": "s1", "b_port": "p0"},
        {"a": "f1", "a_port": "u0", "b": "s0", "b_port": "p1"},
        {"a": "f1", "a_port": "u1", "b": "s1", "b_port": "p1"},
        {"a": "f2", "a_port": "u0", "b": "s0", "b_port": "p2"},
        {"a": "f2", "a_port": "u1", "b": "s1", "b_port": "p2"},
        {"a": "f3", "a_port": "u0", "b": "s0", "b_port": "p3"},
        {"a": "f3", "a_port": "u1", "b": "s1", "b_port": "p3"},
    ],
    "transceiver_models": [
        {
            "name": "100G-SR4",
            "speed_gbps": 100,
            "fiber": "MMF",
            "reach_m": 70,
            "rx_power_min_dbm": -10.3,
            "rx_power_max_dbm": 2.4,
        }
    ],
}
