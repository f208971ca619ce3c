/*
 * error_list.h -- the CUDA runtime's error codes: name, number and the text
 * cudaGetErrorString gives, one line each (CUDA 13's public API, driver_types.h's enum
 * cudaError). Expanded by cuda/error.c (the tables) and cuda/cuda_api.h (the enum).
 *
 * CU_ERROR_LIST(X) calls X(name, number, text) for every code.
 */
#ifndef CUDA_ERROR_LIST_H
#define CUDA_ERROR_LIST_H
#define CU_ERROR_LIST(X) \
  X(cudaSuccess, 0, "no error") \
  X(cudaErrorInvalidValue, 1, "invalid argument") \
  X(cudaErrorMemoryAllocation, 2, "out of memory") \
  X(cudaErrorInitializationError, 3, "initialization error") \
  X(cudaErrorCudartUnloading, 4, "driver shutting down") \
  X(cudaErrorProfilerDisabled, 5, "profiler disabled while using external profiling tool") \
  X(cudaErrorProfilerNotInitialized, 6, "profiler not initialized: call cudaProfilerInitialize()") \
  X(cudaErrorProfilerAlreadyStarted, 7, "profiler already started") \
  X(cudaErrorProfilerAlreadyStopped, 8, "profiler already stopped") \
  X(cudaErrorInvalidConfiguration, 9, "invalid configuration argument") \
  X(cudaErrorInvalidPitchValue, 12, "invalid pitch argument") \
  X(cudaErrorInvalidSymbol, 13, "invalid device symbol") \
  X(cudaErrorInvalidHostPointer, 16, "invalid host pointer") \
  X(cudaErrorInvalidDevicePointer, 17, "invalid device pointer") \
  X(cudaErrorInvalidTexture, 18, "invalid texture reference") \
  X(cudaErrorInvalidTextureBinding, 19, "texture is not bound to a pointer") \
  X(cudaErrorInvalidChannelDescriptor, 20, "invalid channel descriptor") \
  X(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
  X(cudaErrorAddressOfConstant, 22, "invalid address of constant") \
  X(cudaErrorTextureFetchFailed, 23, "fetch from texture failed") \
  X(cudaErrorTextureNotBound, 24, "cannot fetch from a texture that is not bound") \
  X(cudaErrorSynchronizationError, 25, "incorrect use of __syncthreads()") \
  X(cudaErrorInvalidFilterSetting, 26, "linear filtering not supported for non-float type") \
  X(cudaErrorInvalidNormSetting, 27, "read as normalized float not supported for data type") \
  X(cudaErrorMixedDeviceExecution, 28, "device emulation mode and device execution mode cannot be mixed") \
  X(cudaErrorNotYetImplemented, 31, "feature not yet implemented") \
  X(cudaErrorMemoryValueTooLarge, 32, "memory size or pointer value too large to fit in 32 bit") \
  X(cudaErrorStubLibrary, 34, "CUDA driver is a stub library") \
  X(cudaErrorInsufficientDriver, 35, "CUDA driver version is insufficient for CUDA runtime version") \
  X(cudaErrorCallRequiresNewerDriver, 36, "API call is not supported in the installed CUDA driver") \
  X(cudaErrorInvalidSurface, 37, "invalid surface reference") \
  X(cudaErrorDuplicateVariableName, 43, "duplicate global variable looked up by string name") \
  X(cudaErrorDuplicateTextureName, 44, "duplicate texture looked up by string name") \
  X(cudaErrorDuplicateSurfaceName, 45, "duplicate surface looked up by string name") \
  X(cudaErrorDevicesUnavailable, 46, "CUDA-capable device(s) is/are busy or unavailable") \
  X(cudaErrorIncompatibleDriverContext, 49, "incompatible driver context") \
  X(cudaErrorMissingConfiguration, 52, "__global__ function call is not configured") \
  X(cudaErrorPriorLaunchFailure, 53, "unspecified launch failure in prior launch") \
  X(cudaErrorLaunchMaxDepthExceeded, 65, "launch would exceed maximum depth of nested launches") \
  X(cudaErrorLaunchFileScopedTex, 66, "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)") \
  X(cudaErrorLaunchFileScopedSurf, 67, "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)") \
  X(cudaErrorSyncDepthExceeded, 68, "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth") \
  X(cudaErrorLaunchPendingCountExceeded, 69, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount") \
  X(cudaErrorInvalidDeviceFunction, 98, "invalid device function") \
  X(cudaErrorNoDevice, 100, "no CUDA-capable device is detected") \
  X(cudaErrorInvalidDevice, 101, "invalid device ordinal") \
  X(cudaErrorDeviceNotLicensed, 102, "device doesn't have valid Grid license") \
  X(cudaErrorSoftwareValidityNotEstablished, 103, "integrity checks failed") \
  X(cudaErrorStartupFailure, 127, "startup failure in cuda runtime") \
  X(cudaErrorInvalidKernelImage, 200, "device kernel image is invalid") \
  X(cudaErrorDeviceUninitialized, 201, "invalid device context") \
  X(cudaErrorMapBufferObjectFailed, 205, "mapping of buffer object failed") \
  X(cudaErrorUnmapBufferObjectFailed, 206, "unmapping of buffer object failed") \
  X(cudaErrorArrayIsMapped, 207, "array is mapped") \
  X(cudaErrorAlreadyMapped, 208, "resource already mapped") \
  X(cudaErrorNoKernelImageForDevice, 209, "no kernel image is available for execution on the device") \
  X(cudaErrorAlreadyAcquired, 210, "resource already acquired") \
  X(cudaErrorNotMapped, 211, "resource not mapped") \
  X(cudaErrorNotMappedAsArray, 212, "resource not mapped as array") \
  X(cudaErrorNotMappedAsPointer, 213, "resource not mapped as pointer") \
  X(cudaErrorECCUncorrectable, 214, "uncorrectable ECC error encountered") \
  X(cudaErrorUnsupportedLimit, 215, "limit is not supported on this architecture") \
  X(cudaErrorDeviceAlreadyInUse, 216, "exclusive-thread device already in use by a different thread") \
  X(cudaErrorPeerAccessUnsupported, 217, "peer access is not supported between these two devices") \
  X(cudaErrorInvalidPtx, 218, "a PTX JIT compilation failed") \
  X(cudaErrorInvalidGraphicsContext, 219, "invalid OpenGL or DirectX context") \
  X(cudaErrorNvlinkUncorrectable, 220, "uncorrectable NVLink error detected during the execution") \
  X(cudaErrorJitCompilerNotFound, 221, "PTX JIT compiler library not found") \
  X(cudaErrorUnsupportedPtxVersion, 222, "the provided PTX was compiled with an unsupported toolchain.") \
  X(cudaErrorJitCompilationDisabled, 223, "PTX JIT compilation was disabled") \
  X(cudaErrorUnsupportedExecAffinity, 224, "the provided execution affinity is not supported") \
  X(cudaErrorUnsupportedDevSideSync, 225, "the provided PTX contains unsupported call to cudaDeviceSynchronize") \
  X(cudaErrorContained, 226, "Invalid access of peer GPU memory over nvlink or a hardware error") \
  X(cudaErrorInvalidSource, 300, "device kernel image is invalid") \
  X(cudaErrorFileNotFound, 301, "file not found") \
  X(cudaErrorSharedObjectSymbolNotFound, 302, "shared object symbol not found") \
  X(cudaErrorSharedObjectInitFailed, 303, "shared object initialization failed") \
  X(cudaErrorOperatingSystem, 304, "OS call failed or operation not supported on this OS") \
  X(cudaErrorInvalidResourceHandle, 400, "invalid resource handle") \
  X(cudaErrorIllegalState, 401, "the operation cannot be performed in the present state") \
  X(cudaErrorLossyQuery, 402, "attempted introspection would be semantically lossy") \
  X(cudaErrorSymbolNotFound, 500, "named symbol not found") \
  X(cudaErrorNotReady, 600, "device not ready") \
  X(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
  X(cudaErrorLaunchOutOfResources, 701, "too many resources requested for launch") \
  X(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated") \
  X(cudaErrorLaunchIncompatibleTexturing, 703, "launch uses incompatible texturing mode") \
  X(cudaErrorPeerAccessAlreadyEnabled, 704, "peer access is already enabled") \
  X(cudaErrorPeerAccessNotEnabled, 705, "peer access has not been enabled") \
  X(cudaErrorSetOnActiveProcess, 708, "cannot set while device is active in this process") \
  X(cudaErrorContextIsDestroyed, 709, "context is destroyed") \
  X(cudaErrorAssert, 710, "device-side assert triggered") \
  X(cudaErrorTooManyPeers, 711, "peer mapping resources exhausted") \
  X(cudaErrorHostMemoryAlreadyRegistered, 712, "part or all of the requested memory range is already mapped") \
  X(cudaErrorHostMemoryNotRegistered, 713, "pointer does not correspond to a registered memory region") \
  X(cudaErrorHardwareStackError, 714, "hardware stack error") \
  X(cudaErrorIllegalInstruction, 715, "an illegal instruction was encountered") \
  X(cudaErrorMisalignedAddress, 716, "misaligned address") \
  X(cudaErrorInvalidAddressSpace, 717, "operation not supported on global/shared address space") \
  X(cudaErrorInvalidPc, 718, "invalid program counter") \
  X(cudaErrorLaunchFailure, 719, "unspecified launch failure") \
  X(cudaErrorCooperativeLaunchTooLarge, 720, "too many blocks in cooperative launch") \
  X(cudaErrorTensorMemoryLeak, 721, "tensor memory not completely freed") \
  X(cudaErrorNotPermitted, 800, "operation not permitted") \
  X(cudaErrorNotSupported, 801, "operation not supported") \
  X(cudaErrorSystemNotReady, 802, "system not yet initialized") \
  X(cudaErrorSystemDriverMismatch, 803, "system has unsupported display driver / cuda driver combination") \
  X(cudaErrorCompatNotSupportedOnDevice, 804, "forward compatibility was attempted on non supported HW") \
  X(cudaErrorMpsConnectionFailed, 805, "MPS client failed to connect to the MPS control daemon or the MPS server") \
  X(cudaErrorMpsRpcFailure, 806, "the remote procedural call between the MPS server and the MPS client failed") \
  X(cudaErrorMpsServerNotReady, 807, "MPS server is not ready to accept new MPS client requests") \
  X(cudaErrorMpsMaxClientsReached, 808, "the hardware resources required to create MPS client have been exhausted") \
  X(cudaErrorMpsMaxConnectionsReached, 809, "the hardware resources required to support device connections have been exhausted") \
  X(cudaErrorMpsClientTerminated, 810, "the MPS client has been terminated by the server") \
  X(cudaErrorCdpNotSupported, 811, "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it") \
  X(cudaErrorCdpVersionMismatch, 812, "unsupported interaction between different versions of CUDA Dynamic Parallelism") \
  X(cudaErrorStreamCaptureUnsupported, 900, "operation not permitted when stream is capturing") \
  X(cudaErrorStreamCaptureInvalidated, 901, "operation failed due to a previous error during capture") \
  X(cudaErrorStreamCaptureMerge, 902, "operation would result in a merge of separate capture sequences") \
  X(cudaErrorStreamCaptureUnmatched, 903, "capture was not ended in the same stream as it began") \
  X(cudaErrorStreamCaptureUnjoined, 904, "capturing stream has unjoined work") \
  X(cudaErrorStreamCaptureIsolation, 905, "dependency created on uncaptured work in another stream") \
  X(cudaErrorStreamCaptureImplicit, 906, "operation would make the legacy stream depend on a capturing blocking stream") \
  X(cudaErrorCapturedEvent, 907, "operation not permitted on an event last recorded in a capturing stream") \
  X(cudaErrorStreamCaptureWrongThread, 908, "attempt to terminate a thread-local capture sequence from another thread") \
  X(cudaErrorTimeout, 909, "wait operation timed out") \
  X(cudaErrorGraphExecUpdateFailure, 910, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update") \
  X(cudaErrorExternalDevice, 911, "an async error has occured in external entity outside of CUDA") \
  X(cudaErrorInvalidClusterSize, 912, "a kernel launch error has occurred due to cluster misconfiguration") \
  X(cudaErrorFunctionNotLoaded, 913, "the function handle is not loaded when calling an API that requires a loaded function") \
  X(cudaErrorInvalidResourceType, 914, "one or more resources passed in are not valid resource types for the operation") \
  X(cudaErrorInvalidResourceConfiguration, 915, "one or more resources are insufficient or non-applicable for the operation") \
  X(cudaErrorUnknown, 999, "unknown error")
#endif
