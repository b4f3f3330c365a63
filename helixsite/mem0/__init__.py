"""A door for mem0's own clients (``MemoryClient(api_key=<token>, host=<server>/mem0)``, mem0ai
2.2.1 on PyPI and 3.3.1 on npm): mem0's paths and shapes, translated onto the agent tools
(``memory.api``), so every call goes through the same access check, write path and search as
``/api/v1/<tool>``. See docs/agents.md, "Coming from mem0"."""
