"""REST plumbing shared by every app: pagination, parsing, errors, brief mode, filters, auditing."""
