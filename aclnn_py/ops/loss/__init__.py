"""ops-nn ``loss/``: one module per op_api file (``aclnn_smooth_l1_loss.cpp`` -> ``smooth_l1_loss.py``)."""
