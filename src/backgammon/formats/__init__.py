"""Identifiers other backgammon programs write: GNU Backgammon's Match ID and GNU Backgammon ID
(:mod:`.matchid`), eXtreme Gammon's XGID (:mod:`.xgid`)."""
