"""Chat in an online match between people: the players' channel and the spectators', each
player's mute of the other, and the reports of messages for whoever runs the site (the text's
rules: :mod:`.texts`; the messages kept and pushed: :mod:`.rooms`; the API: :mod:`.routes`;
the reports read: :mod:`.reports`).
"""
