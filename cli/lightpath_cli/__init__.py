"""The `lightpath` command line. It talks to the REST API over HTTP and never imports Django."""

__version__ = "0.1.0"
