"""Helixsite: a long-term memory server for LLM agents."""

__version__ = "0.1.0"
