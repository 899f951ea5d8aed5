"""The two-phase engine: the executor graph, its steps, the shared checks, phase 2."""
