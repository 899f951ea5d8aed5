"""ops-math ``math/``: one module per op_api file (``aclnn_add.cpp`` -> ``add.py``)."""
