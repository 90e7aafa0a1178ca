"""The revisions of the server's schema, oldest first."""
