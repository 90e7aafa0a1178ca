"""Accounts: users and their passwords (:mod:`.users`), signed-in sessions and the CSRF guard
(:mod:`.sessions`), rated matches and ratings (:mod:`.ratings`), and their API (:mod:`.routes`).
"""
