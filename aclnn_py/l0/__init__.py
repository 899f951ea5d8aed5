"""The l0 layer: CANN's ``l0op::`` functions, each written once and shared by the L2 operators.

An l0 function infers its output (shape, dtype), chooses where its kernel runs (AI Core or AI
CPU, by dtype and chip), records one :class:`~aclnn_py.executor.executor.Step` and adds the
kernel launch(es) to the executor. Returning ``None`` is the l0 nullptr that an op_api turns
into ``ACLNN_ERR_INNER_NULLPTR`` (561103).

Each takes its parameters in the order of the CANN function, executor last, as ``ex``:
``l0op::Add(self, other, executor)`` is ``add(self, other, ex)``, ``l0op::Fill(dims, value,
outShape, executor)`` is ``fill(dims, value, out_shape, ex)``; CANN's defaulted parameters after
the executor stay after it (``gather_v2(self, axis, indices, ex, batch_dims=0, ...)``). So an L2
module reads side by side with its op_api ``.cpp``. Helpers without an executor
(``aicore_dtypes``, ``is_mix`` ...) and the machinery (``launch.aicore``, ``_binary.elementwise``)
are not l0 functions.

One module per l0 source file of ops-math / ops-nn:

* :mod:`.contiguous` — Contiguous and ViewCopy (ops-math conversion/contiguous);
* :mod:`.cast` — Cast (ops-math math/cast);
* :mod:`.reformat` — ReFormat and :mod:`.transdata` — TransData (ops-math conversion/trans_data);
* one module per compute op (``hard_swish_grad``, ``smooth_l1_loss_grad_v2``, ...).

:mod:`.launch` holds ``ADD_TO_LAUNCHER_LIST_AICORE`` / ``_AICPU``; what an l0 op logs when its
AI Core launch fails is its own (:class:`.launch.OnFailure`, or ``None`` where it ignores the
status).
"""
