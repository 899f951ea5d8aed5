"""ops-math ``conversion/``: one module per op_api file (``aclnn_copy.cpp`` -> ``copy.py``)."""
