/*
 * cutil_math.h -- the project's stand-in for the CUDA SDK's cutil_math.h, which ISPASS-2009's
 * RAY includes for its float3/float4 vector arithmetic (the SDK is not part of the CUDA
 * toolkit any more). Written for RAY: element-wise + - * / between vectors and with a scalar
 * (either side), negation, the compound assignments, dot, cross, length, normalize, clamp and
 * the conversions make_float3(float4) and make_float4(float3, w); host and device.
 */
#ifndef GPUSIM_ISPASS_CUTIL_MATH_H
#define GPUSIM_ISPASS_CUTIL_MATH_H
#include <math.h>
#include <cuda_runtime.h>

#define GPUSIM_HD static inline __host__ __device__

GPUSIM_HD float3 make_float3(float4 a) { return make_float3(a.x, a.y, a.z); }
GPUSIM_HD float4 make_float4(float3 a, float w) { return make_float4(a.x, a.y, a.z, w); }

/* Operator OP element-wise: vector with vector, vector with scalar, scalar with vector, and
   its compound assignment OP=. */
#define GPUSIM_OP(OP)                                                                          \
    GPUSIM_HD float3 operator OP(float3 a, float3 b)                                           \
    {                                                                                          \
        return make_float3(a.x OP b.x, a.y OP b.y, a.z OP b.z);                                \
    }                                                                                          \
    GPUSIM_HD float4 operator OP(float4 a, float4 b)                                           \
    {                                                                                          \
        return make_float4(a.x OP b.x, a.y OP b.y, a.z OP b.z, a.w OP b.w);                    \
    }                                                                                          \
    GPUSIM_HD float3 operator OP(float3 a, float s) { return a OP make_float3(s, s, s); }      \
    GPUSIM_HD float4 operator OP(float4 a, float s) { return a OP make_float4(s, s, s, s); }   \
    GPUSIM_HD float3 operator OP(float s, float3 a) { return make_float3(s, s, s) OP a; }      \
    GPUSIM_HD float4 operator OP(float s, float4 a) { return make_float4(s, s, s, s) OP a; }   \
    GPUSIM_HD void operator OP##=(float3 &a, float3 b) { a = a OP b; }                        \
    GPUSIM_HD void operator OP##=(float4 &a, float4 b) { a = a OP b; }                        \
    GPUSIM_HD void operator OP##=(float3 &a, float s) { a = a OP s; }                         \
    GPUSIM_HD void operator OP##=(float4 &a, float s) { a = a OP s; }
GPUSIM_OP(+)
GPUSIM_OP(-)
GPUSIM_OP(*)
GPUSIM_OP(/)
#undef GPUSIM_OP

GPUSIM_HD float3 operator-(float3 a) { return make_float3(-a.x, -a.y, -a.z); }
GPUSIM_HD float4 operator-(float4 a) { return make_float4(-a.x, -a.y, -a.z, -a.w); }
GPUSIM_HD float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
GPUSIM_HD float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
GPUSIM_HD float3 cross(float3 a, float3 b)
{
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
GPUSIM_HD float length(float3 a) { return sqrtf(dot(a, a)); }
GPUSIM_HD float length(float4 a) { return sqrtf(dot(a, a)); }
GPUSIM_HD float3 normalize(float3 a) { return a * (1.0f / sqrtf(dot(a, a))); }
GPUSIM_HD float4 normalize(float4 a) { return a * (1.0f / sqrtf(dot(a, a))); }
GPUSIM_HD float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
GPUSIM_HD float3 clamp(float3 v, float a, float b)
{
    return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b));
}
GPUSIM_HD float4 clamp(float4 v, float a, float b)
{
    return make_float4(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b), clamp(v.w, a, b));
}
#endif
