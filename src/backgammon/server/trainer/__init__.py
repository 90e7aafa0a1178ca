"""The trainer: a deck of each player's own mistakes, from their analysed matches, brought
back on a spaced-repetition schedule (cards: the decisions and their answers; deck: the
store and the schedule; routes: the API and the page)."""
