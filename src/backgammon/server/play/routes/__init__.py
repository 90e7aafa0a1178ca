"""The API of a match: create and read it (:mod:`.matches`), act on it (:mod:`.actions`), the
fair dice's seeds (:mod:`.fair_dice`), hints (:mod:`.hints`) and live updates
(:mod:`.updates`)."""
