"""FastAPI routers: HTML pages (pages.py), the JSON API (api.py), the WebSocket endpoint (ws.py)."""
