"""The API's routers, one per resource: matches, their actions, their live updates."""
