"""The server's own HTML pages, each from one Jinja2 page shell (:mod:`.templates`): help
(:mod:`.help`), the tutorial (:mod:`.tutorial` and its script, views and page), and the
account and player pages (:mod:`.players`)."""
