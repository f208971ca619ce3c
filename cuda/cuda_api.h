/*
 * cuda_api.h -- the CUDA runtime's public types, as CUDA 13 programs were compiled against
 * them: error codes, dim3, the handles, cudaDeviceProp, cudaFuncAttributes,
 * cudaPointerAttributes and the enumerations the library reads.
 *
 * Not a hardware block: the binary interface of build/cuda/libcudart.so.13, written from the
 * field lists of CUDA 13's public headers (driver_types.h, vector_types.h), which are not
 * needed to build it. The static checks below hold each struct's size and some offsets to
 * what a program compiled with CUDA 13's headers uses (measured with nvcc 13.0 on x86-64).
 */
#ifndef CUDA_API_H
#define CUDA_API_H
#include <stddef.h>
#include <stdint.h>
#include "error_list.h"

#define CU_ENUM(name, num, text) name = num,
typedef enum cudaError { CU_ERROR_LIST(CU_ENUM) } cudaError_t;
#undef CU_ENUM

typedef struct dim3 { unsigned int x, y, z; } dim3;
typedef struct uint3 { unsigned int x, y, z; } uint3;

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef void (*cudaHostFn_t)(void *user_data);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *user_data);

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
};

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};

typedef struct { char bytes[16]; } cudaUUID_t;

struct cudaDeviceProp {
    char         name[256];
    cudaUUID_t   uuid;
    char         luid[8];
    unsigned int luidDeviceNodeMask;
    size_t       totalGlobalMem;
    size_t       sharedMemPerBlock;
    int          regsPerBlock;
    int          warpSize;
    size_t       memPitch;
    int          maxThreadsPerBlock;
    int          maxThreadsDim[3];
    int          maxGridSize[3];
    size_t       totalConstMem;
    int          major;
    int          minor;
    size_t       textureAlignment;
    size_t       texturePitchAlignment;
    int          multiProcessorCount;
    int          integrated;
    int          canMapHostMemory;
    int          maxTexture1D;
    int          maxTexture1DMipmap;
    int          maxTexture2D[2];
    int          maxTexture2DMipmap[2];
    int          maxTexture2DLinear[3];
    int          maxTexture2DGather[2];
    int          maxTexture3D[3];
    int          maxTexture3DAlt[3];
    int          maxTextureCubemap;
    int          maxTexture1DLayered[2];
    int          maxTexture2DLayered[3];
    int          maxTextureCubemapLayered[2];
    int          maxSurface1D;
    int          maxSurface2D[2];
    int          maxSurface3D[3];
    int          maxSurface1DLayered[2];
    int          maxSurface2DLayered[3];
    int          maxSurfaceCubemap;
    int          maxSurfaceCubemapLayered[2];
    size_t       surfaceAlignment;
    int          concurrentKernels;
    int          ECCEnabled;
    int          pciBusID;
    int          pciDeviceID;
    int          pciDomainID;
    int          tccDriver;
    int          asyncEngineCount;
    int          unifiedAddressing;
    int          memoryBusWidth;
    int          l2CacheSize;
    int          persistingL2CacheMaxSize;
    int          maxThreadsPerMultiProcessor;
    int          streamPrioritiesSupported;
    int          globalL1CacheSupported;
    int          localL1CacheSupported;
    size_t       sharedMemPerMultiprocessor;
    int          regsPerMultiprocessor;
    int          managedMemory;
    int          isMultiGpuBoard;
    int          multiGpuBoardGroupID;
    int          hostNativeAtomicSupported;
    int          pageableMemoryAccess;
    int          concurrentManagedAccess;
    int          computePreemptionSupported;
    int          canUseHostPointerForRegisteredMem;
    int          cooperativeLaunch;
    size_t       sharedMemPerBlockOptin;
    int          pageableMemoryAccessUsesHostPageTables;
    int          directManagedMemAccessFromHost;
    int          maxBlocksPerMultiProcessor;
    int          accessPolicyMaxWindowSize;
    size_t       reservedSharedMemPerBlock;
    int          hostRegisterSupported;
    int          sparseCudaArraySupported;
    int          hostRegisterReadOnlySupported;
    int          timelineSemaphoreInteropSupported;
    int          memoryPoolsSupported;
    int          gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int          gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int          deferredMappingCudaArraySupported;
    int          ipcEventSupported;
    int          clusterLaunch;
    int          unifiedFunctionPointers;
    int          deviceNumaConfig;
    int          deviceNumaId;
    int          mpsEnabled;
    int          hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int          hostNumaMultinodeIpcSupported;
    int          reserved[56];
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int    maxThreadsPerBlock;
    int    numRegs;
    int    ptxVersion;
    int    binaryVersion;
    int    cacheModeCA;
    int    maxDynamicSharedSizeBytes;
    int    preferredShmemCarveout;
    int    clusterDimMustBeSet;
    int    requiredClusterWidth;
    int    requiredClusterHeight;
    int    requiredClusterDepth;
    int    clusterSchedulingPolicyPreference;
    int    nonPortableClusterSizeAllowed;
    int    reserved[16];
};

struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int   device;
    void *devicePointer;
    void *hostPointer;
    long  reserved[8];
};

/* The sizes and offsets a CUDA 13 program uses (nvcc 13.0, x86-64). */
_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "cudaDeviceProp is CUDA 13's");
_Static_assert(offsetof(struct cudaDeviceProp, totalGlobalMem) == 288, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, multiProcessorCount) == 384, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, l2CacheSize) == 596, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, regsPerMultiprocessor) == 632, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, maxBlocksPerMultiProcessor) == 688, "cudaDeviceProp layout");
_Static_assert(offsetof(struct cudaDeviceProp, reserved) == 784, "cudaDeviceProp layout");
_Static_assert(sizeof(struct cudaFuncAttributes) == 144, "cudaFuncAttributes is CUDA 13's");
_Static_assert(offsetof(struct cudaFuncAttributes, numRegs) == 28, "cudaFuncAttributes layout");
_Static_assert(sizeof(struct cudaPointerAttributes) == 88, "cudaPointerAttributes is CUDA 13's");
_Static_assert(sizeof(dim3) == 12, "dim3");

/* cudaDeviceGetAttribute's attributes the library answers (enum cudaDeviceAttr). */
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10, cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14, cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16, cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
    cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32, cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34, cudaDevAttrTccDriver = 35, cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41, cudaDevAttrPciDomainId = 50,
    cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrStreamPrioritiesSupported = 78, cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrReservedSharedMemoryPerBlock = 111
};

/* cudaFuncSetAttribute's attributes (enum cudaFuncAttribute). */
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

/* cudaEventCreateWithFlags, cudaStreamCreateWithFlags, cudaHostAlloc flags the library
   accepts (the model has no timing or mapping behind them). */
#define cudaEventDefault        0x00
#define cudaEventBlockingSync   0x01
#define cudaEventDisableTiming  0x02
#define cudaEventInterprocess   0x04
#define cudaStreamDefault       0x00
#define cudaStreamNonBlocking   0x01

#endif
