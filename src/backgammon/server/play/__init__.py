"""Playing a match: acting on it (:mod:`.service`, the one place a request changes a match),
the matches in memory and their saves (:mod:`.store`, :mod:`.saves`, :mod:`.idempotency`),
who sits where (:mod:`.seats`, :mod:`.live`), the computer's turns (:mod:`.computer`), the
watching pages (:mod:`.watchers`), the other processes told of each save (:mod:`.relay`) and
a copy brought up to its row (:mod:`.copies`), the state a page sees (:mod:`.views`,
:mod:`.schemas`), and the API's thin routers (:mod:`.routes`)."""
