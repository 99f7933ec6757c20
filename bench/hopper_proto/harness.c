/* Host side of the Hopper GEMM prototype: CUDA driver API only.
 * Built as a shared object (libhp.so) that bench.py drives through ctypes; torch owns the
 * buffers and the stream, this file owns modules, tensor maps and launches.
 *
 *   hp_load(path)                 cuModuleLoadData on a cubin (or PTX text) -> module id
 *   hp_plan(...)                  encodes both tensor maps once -> plan id
 *   hp_launch(plan, stream)       one launch (K == 0: C[:M,:N] = 0 with a 2D memset, no kernel)
 *
 * Tensor maps (cuTensorMapEncodeTiled), all SWIZZLE_128B, OOB fill zero, L2 promotion 256B:
 *   A  [M,K] row-major : dims {K, M}, stride lda*2, box {64, 128}            16 KB per stage
 *   B  [K,N] (MN-major): dims {N, K}, stride ldb*2, box {64, 64}  x BN/64    BN*128 B per stage
 *   B  [N,K] (K-major) : dims {K, N}, stride ldb*2, box {64, BN}  x 1        BN*128 B per stage
 * Kernel parameters: (tmA, tmB passed by value as 128-byte .param blobs; C, M, N, K, ldc).
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MODS 64
#define MAX_PLANS 256

typedef struct {
    CUtensorMap tmA; /* CUtensorMap is _Alignas(128) in C11 */
    CUtensorMap tmB;
    CUfunction fn;
    CUdeviceptr C;
    unsigned M, N, K, ldc;
    unsigned grid, threads, smem;
} Plan;

static CUmodule mods[MAX_MODS];
static int nmods;
static Plan plans[MAX_PLANS];
static int nplans;
static char errbuf[512];

const char *hp_error(void) { return errbuf; }

static int check(CUresult r, const char *what) {
    if (r == CUDA_SUCCESS) return 0;
    const char *s = NULL;
    cuGetErrorString(r, &s);
    snprintf(errbuf, sizeof errbuf, "%s: %s (%d)", what, s ? s : "?", (int)r);
    return -1;
}

static int ensure_ctx(void) {
    CUcontext c = NULL;
    if (check(cuInit(0), "cuInit")) return -1;
    if (check(cuCtxGetCurrent(&c), "cuCtxGetCurrent")) return -1;
    if (c) return 0;
    CUdevice d;
    if (check(cuDeviceGet(&d, 0), "cuDeviceGet")) return -1;
    if (check(cuDevicePrimaryCtxRetain(&c, d), "cuDevicePrimaryCtxRetain")) return -1;
    return check(cuCtxSetCurrent(c), "cuCtxSetCurrent");
}

/* path ends in .ptx: the driver JIT-compiles it; otherwise a cubin. */
int hp_load(const char *path) {
    if (ensure_ctx()) return -1;
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(errbuf, sizeof errbuf, "cannot open %s", path); return -1; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n + 1);
    if (fread(buf, 1, n, f) != (size_t)n) { fclose(f); free(buf); snprintf(errbuf, sizeof errbuf, "short read %s", path); return -1; }
    buf[n] = 0;
    fclose(f);
    if (nmods == MAX_MODS) { free(buf); snprintf(errbuf, sizeof errbuf, "too many modules"); return -1; }
    CUresult r = cuModuleLoadData(&mods[nmods], buf);
    free(buf);
    if (check(r, "cuModuleLoadData")) return -1;
    return nmods++;
}

int hp_num_sms(void) {
    CUdevice d;
    int v = 0;
    if (ensure_ctx() || cuCtxGetDevice(&d) != CUDA_SUCCESS) return -1;
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);
    return v;
}

static int encode(CUtensorMap *m, CUtensorMapDataType dt, void *ptr, uint64_t inner, uint64_t outer,
                  uint64_t ld_elems, uint32_t box_inner, uint32_t box_outer) {
    cuuint64_t dims[2] = {inner, outer};
    cuuint64_t strides[1] = {ld_elems * 2};
    cuuint32_t box[2] = {box_inner, box_outer};
    cuuint32_t estr[2] = {1, 1};
    return check(cuTensorMapEncodeTiled(m, dt, 2, ptr, dims, strides, box, estr,
                                        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                        CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                 "cuTensorMapEncodeTiled");
}

/* dtype: 0 = bf16, 1 = f16. b_kmajor: 0 = B is [K,N] (MN-major), 1 = B is [N,K].
 * grid: number of CTAs (tiles, or #SMs for the persistent variant). */
int hp_plan(int mod, const char *kname, int threads, int smem, int grid, int bn, int dtype, int b_kmajor,
            void *A, long lda, void *B, long ldb, void *C, long ldc, int M, int N, int K) {
    if (nplans == MAX_PLANS) { snprintf(errbuf, sizeof errbuf, "too many plans"); return -1; }
    Plan *p = &plans[nplans];
    memset(p, 0, sizeof *p);
    p->C = (CUdeviceptr)(uintptr_t)C;
    p->M = M; p->N = N; p->K = K; p->ldc = ldc;
    p->grid = grid; p->threads = threads; p->smem = smem;
    if (K > 0) {
        CUtensorMapDataType dt = dtype == 0 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
        if (check(cuModuleGetFunction(&p->fn, mods[mod], kname), "cuModuleGetFunction")) return -1;
        if (check(cuFuncSetAttribute(p->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
                  "cuFuncSetAttribute")) return -1;
        if (encode(&p->tmA, dt, A, K, M, lda, 64, 128)) return -1;
        if (b_kmajor) {
            if (encode(&p->tmB, dt, B, K, N, ldb, 64, bn)) return -1;
        } else {
            if (encode(&p->tmB, dt, B, N, K, ldb, 64, 64)) return -1;
        }
    }
    return nplans++;
}

int hp_launch(int plan, void *stream) {
    Plan *p = &plans[plan];
    CUstream s = (CUstream)stream;
    if (p->K == 0)  /* no k-steps: C = 0 (the kernel's scale-d trick never runs) */
        return check(cuMemsetD2D16Async(p->C, (size_t)p->ldc * 2, 0, p->N, p->M, s), "cuMemsetD2D16Async");
    void *args[] = {&p->tmA, &p->tmB, &p->C, &p->M, &p->N, &p->K, &p->ldc};
    return check(cuLaunchKernel(p->fn, p->grid, 1, 1, p->threads, 1, 1, p->smem, s, args, NULL), "cuLaunchKernel");
}

int hp_reset_plans(void) { nplans = 0; return 0; }
