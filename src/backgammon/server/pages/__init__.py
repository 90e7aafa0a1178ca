"""The server's own HTML pages: help (:mod:`.help`), the tutorial (:mod:`.tutorial`), and the
account and player pages (:mod:`.players`)."""
