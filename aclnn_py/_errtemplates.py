"""The error ids of the messages ``aclGetRecentErrMsg()`` shows: their title, and the
"Possible Cause" and "Solution" lines printed under a headline (empty: none).

Facts of CANN's error-manager templates (opbase's nnopbase templates for EZ ids, the runtime's
error_code.json for EH/EE ids, and its EK (profiling) and EP (dump) ids), as of CANN 9.1/master."""

from __future__ import annotations

TEMPLATES: dict[str, tuple[str, str, str]] = {
    "EE1001": (
        "Invalid_Argument",
        "",
        "1. Check the input parameter range of the function. 2. Check the function invocation relationship.",
    ),
    "EE1002": (
        "Execution_Error_Stream_Synchronize_Timeout",
        "1. The timeout interval may be improperly set.",
        "1. Check whether the timeout interval is properly set. 2. Check whether the network is normal.",
    ),
    "EE1003": (
        "Invalid_Argument",
        "",
        "1. Check the input parameter range of the function. 2. Check the function invocation relationship.",
    ),
    "EE1004": (
        "Invalid_Argument_Null_Pointer",
        "",
        "Try again with a correct pointer argument.",
    ),
    "EE1005": (
        "Not_Supported",
        "",
        "",
    ),
    "EE1006": (
        "Not_Supported",
        "",
        "",
    ),
    "EE1007": (
        "Resource_Error_Bind_Stream",
        "",
        "Unbind the stream from the already bound model and then rebind it to the current model.",
    ),
    "EE1009": (
        "Execution_Error_Model",
        "",
        "",
    ),
    "EE1010": (
        "Execution_Error_Invalid_Context",
        "",
        "",
    ),
    "EE1011": (
        "Invalid_Argument",
        "",
        "1. Check the input parameter range of the function. 2. Check the function invocation relationship.",
    ),
    "EE1012": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EE1013": (
        "Resource_Error_Insufficient_Host_Memory",
        "Allocation failed due to insufficient host memory.",
        "Ensure that there is sufficient memory available. You can stop unnecessary processes to free up memory.",
    ),
    "EE1014": (
        "File_Operation_Error_Parse",
        "1. The binary file of the operator is damaged. 2. The build parameter is incorrect.",
        "Rebuild and load the binary file of the operator.",
    ),
    "EE1015": (
        "Package_Error_Incorrect_Driver_Version",
        "",
        "Upgrade the driver software version.",
    ),
    "EE1016": (
        "Not_Supported",
        "",
        "",
    ),
    "EE1017": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EE1018": (
        "Invalid_Argument_API_Call_Sequence",
        "",
        "",
    ),
    "EE1019": (
        "Execution_Error",
        "",
        "1. Reduce the number of tasks delivered to the same stream. 2. Use multiple streams to submit tasks in parallel.",
    ),
    "EE1020": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EE1021": (
        "Resource_Error",
        "Failed to create resources such as semaphores, locks, or threads due to insufficient system resources.",
        "Stop unnecessary threads and ensure that the required resource is available.",
    ),
    "EE1022": (
        "Invalid_Argument",
        "",
        "1. Check the input parameter value ranges of the function. 2. Check the function invocation relationship.",
    ),
    "EE1023": (
        "Resource_Error",
        "",
        'For details about the troubleshooting method, search for the keyword "EE1023" on https://www.hiascend.com/document/.',
    ),
    "EE2002": (
        "Config_Error_Invalid_Environment_Variable",
        "",
        "Reset the environment variable by referring to the Environment Variable Reference.",
    ),
    "EE4001": (
        "Model_Binding_Errors",
        "The stream has been bound to another model.",
        "Remove the repeated binding operation on the stream from the code.",
    ),
    "EE4002": (
        "Model_Unbinding_Errors",
        "1. The stream to be unbound is not bound to the model. 2. The model is running.",
        "1. Check the code to ensure that the stream to be unbound is bound to the model. 2. Ensure that the model is not running.",
    ),
    "EE4004": (
        "Profiling_Enable_Errors",
        "",
        "Do not enable profiling repeatedly.",
    ),
    "EH0001": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EH0002": (
        "Invalid_Argument_Null_Pointer",
        "",
        "Try again with a correct pointer argument.",
    ),
    "EH0003": (
        "File_Operation_Error_Invalid_Path",
        "",
        "",
    ),
    "EH0004": (
        "File_Operation_Error",
        "",
        "",
    ),
    "EH0005": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EH0006": (
        "Not_Supported",
        "",
        "",
    ),
    "EH0007": (
        "Invalid_Argument",
        "",
        "1. Check the input parameter range of the function. 2. Check the function invocation relationship.",
    ),
    "EH0008": (
        "Invalid_Argument_Null_Pointer",
        "",
        "Try again with a correct pointer argument.",
    ),
    "EH0009": (
        "Invalid_Argument",
        "",
        "1. Check the input parameter range of the function. 2. Check the function invocation relationship.",
    ),
    "EH0010": (
        "Resource_Error_Insufficient_Host_Memory",
        "Allocation failed due to insufficient host memory.",
        "Ensure that there is sufficient memory available. You can stop unnecessary processes to free up memory.",
    ),
    "EH0011": (
        "Not_Supported",
        "",
        "",
    ),
    "EH0012": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EH0013": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EH0014": (
        "Invalid_Argument_Null_Pointer",
        "",
        "Try again with correct pointer arguments.",
    ),
    "EZ1001": (
        "AclNN_Parameter_Error",
        "",
        "",
    ),
    "EZ1002": (
        "Config_Error_Invalid_Environment_Variable",
        "",
        "Reset the environment variable by referring to the Environment Variable Reference.",
    ),
    "EZ1003": (
        "File_Operation_Error_Open",
        "",
        "",
    ),
    "EZ1004": (
        "File_Operation_Error_Parse",
        "",
        "",
    ),
    "EZ1005": (
        "File_Operation_Error_Parse",
        "1.The custom operator JSON file is damaged. 2.The built-in operator JSON file is damaged.",
        "1.Reinstall the custom operator package. 2.Reinstall the built-in operator package.",
    ),
    "EZ1006": (
        "Not_Supported_Data_Type",
        "",
        "",
    ),
    "EZ1007": (
        "Invalid_Argument_Tensor_Input_Shape",
        "",
        "",
    ),
    "EZ1008": (
        "Execution_Error",
        "",
        "1.If the tiling function does not exist, check whether the tiling function is registered successfully. 2.If the tiling function fails to be executed, check the implementation logic of the tiling function.",
    ),
    "EZ1009": (
        "Execution_Error",
        "",
        "",
    ),
    "EZ1010": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EZ1011": (
        "Invalid_Argument_Null_Pointer",
        "",
        "",
    ),
    "EZ1012": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EZ1013": (
        "Config_Error",
        "1.The operator package of the corresponding SoC version is not correctly installed. 2.If the operator is a custom operator, the environment variable ASCEND_CUSTOM_OPP_PATH of the custom operator may not be configured or be incorrectly configured. 3.If the operator is a built-in operator, the environment variable ASCEND_OPP_PATH of the built-in operator may not be configured or be incorrectly configured.",
        "1.Install the operator package of the corresponding SoC version correctly. 2.Set ASCEND_CUSTOM_OPP_PATH to the actual installation path of the custom operator package. 3.Set ASCEND_OPP_PATH to the actual installation path of the built-in operator package.",
    ),
    "EZ1014": (
        "Execution_Error",
        "",
        "1.If the inferShape function does not exist, check whether the inferShape function is registered successfully. 2.If the inferShape function fails to be executed, check the implementation logic of the inferShape function.",
    ),
    "EZ9903": (
        "AclNN_Runtime_Error",
        "",
        "In this scenario, collect the plog when the fault occurs and locate the fault based on the plog.",
    ),
    "EZ9999": (
        "AclNN_Inner_Error",
        "",
        "1. Check whether the CANN package is correct.\n2. Check whether the environment variable is correct.",
    ),
    "EK0001": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EK0002": (
        "Invalid_Argument_API_Call_Sequence",
        "",
        "",
    ),
    "EK0003": (
        "Config_Error",
        "",
        "",
    ),
    "EK0004": (
        "Not_Supported_API",
        "",
        "",
    ),
    "EK0005": (
        "Not_Supported",
        "",
        "",
    ),
    "EK0006": (
        "Invalid_Argument_Null_Pointer",
        "",
        "",
    ),
    "EK0007": (
        "Invalid_Argument",
        "Do not enable two or more profile data collection modes. Example: When Profiling is started using msprof command lines, do not use acl APIs in the app to start Profiling data collection.",
        "Change the Profiling startup mode as required.",
    ),
    "EK0201": (
        "Resource_Error_Insufficient_Host_Memory",
        "Allocation failed due to insufficient host memory.",
        "Stop unnecessary processes and ensure that the required memory is available.",
    ),
    "EK0202": (
        "Resource_Error_Insufficient_Host_Memory",
        "Allocation failed due to insufficient host memory.",
        "Stop unnecessary processes and ensure that the required memory is available.",
    ),
    "EK0203": (
        "Resource_Error",
        "New thread cannot be created due to insufficient system thread resources.",
        "Stop unnecessary threads and ensure that the required resource is available.",
    ),
    "EK0204": (
        "Resource_Error",
        "",
        "At least 20MB storage space is required for Profiling flushing. Delete redundant files or change the flushing path.",
    ),
    "EK9999": (
        "System_Terminated",
        "",
        "",
    ),
    "EP0001": (
        "Config_Error",
        "",
        "",
    ),
    "EP0002": (
        "Config_Error",
        "",
        "",
    ),
    "EP0003": (
        "Config_Error",
        "",
        "",
    ),
    "EP0004": (
        "File_Operation_Error_Parse",
        "",
        "",
    ),
    "EP0005": (
        "Config_Error",
        "",
        "",
    ),
    "EP0006": (
        "Invalid_Argument",
        "",
        "",
    ),
    "EP0007": (
        "Invalid_Argument_Null_Pointer",
        "",
        "Try again with a correct pointer argument.",
    ),
    "EP0008": (
        "Invalid_Argument_API_Call_Sequence",
        "",
        "",
    ),
    "EP9999": (
        "Inner_Error",
        "",
        "",
    ),
}
