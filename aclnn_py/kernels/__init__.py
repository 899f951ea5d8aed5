"""The arithmetic of each kernel, per chip: pure functions on numpy arrays.

Kernels know no pointers, streams or executors. Each recipe computes fp16/bf16 inputs in
float32 (exact upcast), performs every operation in float32 in the order the chip's kernel
does, and rounds once to the output dtype with round-half-to-even.
"""
