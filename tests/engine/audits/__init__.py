"""The rules audits whose tests no longer fit beside the other engine tests (tests/engine holds at most 20 modules)."""
