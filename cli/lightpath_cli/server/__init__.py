"""The server side of the CLI: the REST client, pagination, lookups by name, job submission and
following, HTTP errors, and the shapes (key lists) the CLI prints of the API's answers."""
