"""Offline work: file readers, atomic writes and the engine calls of the solver commands.

Nothing here talks HTTP (that is lightpath_cli.server) or prints results (the command modules do).
"""
