"""The position editor: its page (``/editor``) and the two questions it asks the server, the
IDs of a position set up by hand and the position an ID holds (:mod:`.routes`)."""
