"""The search_memory pipeline, one module per stage in the order data flows:
params → seeds → expand → score → project."""
