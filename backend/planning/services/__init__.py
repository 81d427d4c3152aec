"""RAIL in the server (docs/rail.md, "In the server"): the stretch plan and the reliability classes of
a fabric, computed by the engine (lightpath_engine.rail_*), with stored link and switch ids and names.
"""
