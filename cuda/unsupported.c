/*
 * unsupported.c -- the CUDA runtime calls a program may use that the model does not support:
 * each returns cudaErrorNotSupported and, the first time, prints its name on stderr
 * ("gpusim: cudaXxx is not supported by the model; ..."). Never an abort: the program sees
 * an error code, as from any failing call. docs/cuda.md lists them; a call moves out of this
 * file when it is supported.
 *
 * The stubs take no parameters: every one returns cudaError_t, and in the x86-64 calling
 * convention a callee that ignores its arguments may be called with any.
 */
#include "rt.h"

static cudaError_t unsupported(const char *name)
{
    rt_lock();
    rt_once(name, "%s is not supported by the model; it returns cudaErrorNotSupported "
            "(docs/cuda.md lists what is supported)", name);
    return rt_done(cudaErrorNotSupported);
}

#define UNSUPPORTED(name) cudaError_t name(void); cudaError_t name(void) { return unsupported(#name); }

/* memory the model has no form of: managed, arrays and mipmaps, 3-D, peers, pools,
   registered or mapped host memory */
UNSUPPORTED(cudaMallocManaged)
UNSUPPORTED(cudaMallocArray)
UNSUPPORTED(cudaMalloc3D)
UNSUPPORTED(cudaMalloc3DArray)
UNSUPPORTED(cudaMallocMipmappedArray)
UNSUPPORTED(cudaFreeArray)
UNSUPPORTED(cudaFreeMipmappedArray)
UNSUPPORTED(cudaArrayGetInfo)
UNSUPPORTED(cudaMemcpy3D)
UNSUPPORTED(cudaMemcpy3DAsync)
UNSUPPORTED(cudaMemcpy2DToArray)
UNSUPPORTED(cudaMemcpy2DToArrayAsync)
UNSUPPORTED(cudaMemcpy2DFromArray)
UNSUPPORTED(cudaMemcpy2DFromArrayAsync)
UNSUPPORTED(cudaMemcpy2DArrayToArray)
UNSUPPORTED(cudaMemcpyPeer)
UNSUPPORTED(cudaMemcpyPeerAsync)
UNSUPPORTED(cudaMemset3D)
UNSUPPORTED(cudaMemset3DAsync)
UNSUPPORTED(cudaMemset2DAsync)
UNSUPPORTED(cudaMemPrefetchAsync)
UNSUPPORTED(cudaMemAdvise)
UNSUPPORTED(cudaMallocAsync)
UNSUPPORTED(cudaFreeAsync)
UNSUPPORTED(cudaMallocFromPoolAsync)
UNSUPPORTED(cudaHostRegister)
UNSUPPORTED(cudaHostUnregister)
UNSUPPORTED(cudaHostGetDevicePointer)
UNSUPPORTED(cudaHostGetFlags)
/* textures and surfaces */
UNSUPPORTED(cudaCreateTextureObject)
UNSUPPORTED(cudaDestroyTextureObject)
UNSUPPORTED(cudaCreateSurfaceObject)
UNSUPPORTED(cudaDestroySurfaceObject)
UNSUPPORTED(cudaGetChannelDesc)
/* launches beyond one grid at a time */
UNSUPPORTED(cudaLaunchCooperativeKernel)
UNSUPPORTED(cudaLaunchKernelExC)
UNSUPPORTED(cudaOccupancyMaxActiveClusters)
/* graphs and stream capture */
UNSUPPORTED(cudaGraphCreate)
UNSUPPORTED(cudaGraphInstantiate)
UNSUPPORTED(cudaGraphInstantiateWithFlags)
UNSUPPORTED(cudaGraphLaunch)
UNSUPPORTED(cudaGraphDestroy)
UNSUPPORTED(cudaGraphExecDestroy)
UNSUPPORTED(cudaGraphAddKernelNode)
UNSUPPORTED(cudaStreamBeginCapture)
UNSUPPORTED(cudaStreamEndCapture)
/* more than one device, other processes, other APIs */
UNSUPPORTED(cudaDeviceEnablePeerAccess)
UNSUPPORTED(cudaDeviceDisablePeerAccess)
UNSUPPORTED(cudaIpcGetMemHandle)
UNSUPPORTED(cudaIpcOpenMemHandle)
UNSUPPORTED(cudaIpcCloseMemHandle)
UNSUPPORTED(cudaIpcGetEventHandle)
UNSUPPORTED(cudaIpcOpenEventHandle)
UNSUPPORTED(cudaImportExternalMemory)
UNSUPPORTED(cudaGraphicsGLRegisterBuffer)
UNSUPPORTED(cudaGraphicsMapResources)
UNSUPPORTED(cudaGraphicsUnmapResources)
UNSUPPORTED(cudaGetDriverEntryPoint)
UNSUPPORTED(cudaGetDriverEntryPointByVersion)
UNSUPPORTED(cudaGetFuncBySymbol)
UNSUPPORTED(cudaGetKernel)
UNSUPPORTED(cudaLibraryLoadData)
UNSUPPORTED(cudaLibraryLoadFromFile)
