"""The l0 layer: CANN's ``l0op::`` functions, each written once and shared by the L2 operators.

An l0 function infers its output (shape, dtype), chooses where its kernel runs (AI Core or AI
CPU, by dtype and chip), records one :class:`~aclnn_py.executor.executor.Step` and adds the
kernel launch(es) to the executor. Returning ``None`` is the l0 nullptr that an op_api turns
into ``ACLNN_ERR_INNER_NULLPTR`` (561103). One module per l0 source file of ops-math / ops-nn:

* :mod:`.contiguous` — Contiguous and ViewCopy (ops-math conversion/contiguous);
* :mod:`.cast` — Cast (ops-math math/cast);
* :mod:`.reformat` — ReFormat (ops-math conversion/trans_data);
* one module per compute op (``hard_swish_grad``, ``smooth_l1_loss_grad_v2``, ...).

:mod:`.launch` holds ``ADD_TO_LAUNCHER_LIST_AICORE`` / ``_AICPU``.
"""
