"""ops-nn ``vfusion/``: one module per op_api file (``aclnn_scaled_masked_softmax.cpp`` -> ...)."""
