"""Online play's meeting place: the invites, the lobby of matches waiting for an opponent and
the matches being played (the database's answers: :mod:`.queries`; the API: :mod:`.routes`).
"""
