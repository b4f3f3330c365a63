"""The memory tools (add, search and its variants, read, correct, forget), one module for the
tools that write and one for those that read; their shared shapes and documented examples."""
