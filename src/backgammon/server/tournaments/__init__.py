"""Tournaments: the draw and its standings (pure), their rows, the service that starts and
advances them exactly once, the routes and the pages."""
