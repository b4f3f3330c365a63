"""The add_memory pipeline, one module per stage in the order data flows:
extract → embed → candidates → decide → apply → enrich."""
