"""ops-nn ``index/``: one module per op_api file (``aclnn_index_select.cpp`` -> ``index_select.py``)."""
