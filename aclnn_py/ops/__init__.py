"""One module per aclnn operator: its checks in CANN's order, then its graph."""
