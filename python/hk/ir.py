"""The IR builder (hk.ir)."""
