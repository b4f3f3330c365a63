"""The MCP server: the agent tools of the catalogue, two prompts and three resources, over stdio
(``manage.py mcp``) and streamable HTTP (``/mcp``)."""
