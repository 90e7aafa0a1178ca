"""The languages the server's pages are written in (the help, the tutorial, the account and
player pages), in the game's order (its language menu's); the first is the one a page falls
back to."""

LANGUAGES = ("en", "vi", "mt", "fa", "km")
