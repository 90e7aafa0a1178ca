"""The API's routers, one per resource: matches, their actions, hints, their live updates."""
