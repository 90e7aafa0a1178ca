"""Analyses of the server's matches and of uploaded ``.mat`` files: the jobs and their rows
(:mod:`.analyses`) and their API (:mod:`.routes`)."""
