"""The engine API for other programs, under ``/api/v1/engine/`` (:mod:`.routes`)."""
