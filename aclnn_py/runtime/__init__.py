"""The emulated AscendCL runtime (``acl_rt.h``): memory, devices, contexts, streams, events."""
