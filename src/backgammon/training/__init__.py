"""Training the computer player, apart from playing: nothing but the command line imports it.

* Games between players, same dice both seatings (:mod:`.duel`), to measure networks; games
  of the bot against itself written as a match (:mod:`.selfplay`).
* Self-play TD(lambda) (:mod:`.train`), supervised refits on the bot's own search
  (:mod:`.supervised`), rollout-labelled generations of its own positions
  (:mod:`.generations`), refits of the kept generations (:mod:`.refit`).
* The truth set: positions rolled out to the end, the yardstick of networks and labels
  (:mod:`.truth`).

Everything it trains is a file of networks that :mod:`backgammon.bot` loads.
"""
