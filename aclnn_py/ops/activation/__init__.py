"""ops-nn ``activation/``: one module per op_api file (``aclnn_softmax.cpp`` -> ``softmax.py``)."""
