"""Stores: regret and strategy tables in RAM and on disk as zarr (never pickle)."""
