/* Runs the launch stubs of a generated header (make_test_header mock) against the fake driver
   of mock_cuda.c: argument checks, variant choice, PTX parameter packing, grids, loading,
   threads, several translation units. Valid C99 and C++17; compiled and run as both. */
#include "mock_kernels.h"
#include "mock_cuda.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                        \
    }                                                                    \
  } while (0)

/* From the other translation units. */
const tilec_kernel_metadata* tu2_metadata(void);
CUresult tu2_fill(CUdeviceptr out, int64_t value);
const tilec_kernel_metadata* tu3_metadata(void);

static int64_t param_i64(int i) { int64_t v; memcpy(&v, mock.last.params[i], 8); return v; }
static uint64_t param_u64(int i) { uint64_t v; memcpy(&v, mock.last.params[i], 8); return v; }
static uint16_t param_u16(int i) { uint16_t v; memcpy(&v, mock.last.params[i], 2); return v; }
static int32_t param_i32(int i) { int32_t v; memcpy(&v, mock.last.params[i], 4); return v; }
static double param_f64(int i) { double v; memcpy(&v, mock.last.params[i], 8); return v; }

/* scale_rows: x f16[m, 64], y f16[m, 64], flags bool[m]; alpha f16, beta bf16, use_bias bool,
   rows_per_cta i32, eps f64, tag u8. PTX: x, 2 strides, y, 2 strides, flags, 1 stride, m, scalars. */
static const size_t scale_sizes[] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 2, 2, 1, 4, 8, 1};

static void test_conversions(void) {
  CHECK(tilec_f32_to_f16(1.0f) == 0x3c00);
  CHECK(tilec_f32_to_f16(-2.0f) == 0xc000);
  CHECK(tilec_f32_to_f16(0.1f) == 0x2e66);
  CHECK(tilec_f32_to_f16(65504.0f) == 0x7bff);
  CHECK(tilec_f32_to_f16(65519.0f) == 0x7bff);
  CHECK(tilec_f32_to_f16(65520.0f) == 0x7c00);   /* halfway to 65536: ties to even = inf */
  CHECK(tilec_f32_to_f16(1e9f) == 0x7c00);
  CHECK(tilec_f32_to_f16(-0.0f) == 0x8000);
  CHECK(tilec_f32_to_f16(5.9604645e-8f) == 0x0001); /* 2^-24, the smallest subnormal */
  CHECK(tilec_f32_to_f16(2.9802322e-8f) == 0x0000); /* 2^-25: tie, rounds to even 0 */
  CHECK(tilec_f32_to_f16(8.9406967e-8f) == 0x0002); /* 1.5 * 2^-24: tie, rounds to even 2 */
  CHECK(tilec_f32_to_f16(6.097555e-5f) == 0x03ff);  /* largest subnormal */
  CHECK(tilec_f32_to_f16(6.1035156e-5f) == 0x0400); /* 2^-14, smallest normal */
  CHECK((tilec_f32_to_f16(0.0f / 0.0f) & 0x7e00) == 0x7e00);
  CHECK(tilec_f32_to_f16(1.0009766f) == 0x3c01);    /* 1 + 2^-10 */
  CHECK(tilec_f32_to_f16(1.00048828125f) == 0x3c00); /* 1 + 2^-11: tie, to even */
  CHECK(tilec_f32_to_f16(1.00146484375f) == 0x3c02); /* 1 + 3 * 2^-11: tie, to even */
  CHECK(tilec_f32_to_bf16(1.0f) == 0x3f80);
  CHECK(tilec_f32_to_bf16(0.1f) == 0x3dcd);
  CHECK(tilec_f32_to_bf16(3.0f) == 0x4040);
  CHECK(tilec_f32_to_bf16(1.00390625f) == 0x3f80);  /* 1 + 2^-8: tie, to even */
  CHECK(tilec_f32_to_bf16(1.01171875f) == 0x3f82);  /* 1 + 3 * 2^-8: tie, to even */
  CHECK((tilec_f32_to_bf16(0.0f / 0.0f) & 0x7fc0) == 0x7fc0);
  CHECK(tilec_cdiv(7, 2) == 4 && tilec_cdiv(-7, 2) == -3 && tilec_cdiv(8, 2) == 4);
  CHECK(tilec_floordiv(-7, 2) == -4 && tilec_floordiv(7, -2) == -4 && tilec_floordiv(7, 2) == 3);
  CHECK(tilec_cdiv(1, 0) == INT64_MIN && tilec_max(tilec_cdiv(1, 0), 5) == INT64_MIN);
}

static void test_scale_rows(void) {
  CUdeviceptr x = 0x100000, y = 0x200000, flags = 0x300000;
  uint32_t grid[3] = {0, 0, 0};
  mock_reset();
  mock_param_sizes(scale_sizes, 15);

  CHECK(mock_scale_rows_grid(1000, 1.5f, 3.0f, true, 64, 1e-5, 7, grid) == CUDA_SUCCESS);
  CHECK(grid[0] == 16 && grid[1] == 1 && grid[2] == 2);
  CHECK(mock_scale_rows_grid(1000, 1.5f, 3.0f, true, 0, 1e-5, 7, grid) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_scale_rows_grid(-1, 1.5f, 3.0f, true, 64, 1e-5, 7, grid) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_scale_rows_grid(INT64_C(1) << 40, 1.5f, 3.0f, true, 1, 1e-5, 7, grid) == CUDA_ERROR_INVALID_VALUE);

  CHECK(mock_scale_rows(mock_stream(0), x, y, flags, 1000, 1.5f, 3.0f, true, 64, 1e-5, 7) == CUDA_SUCCESS);
  CHECK(mock.launches == 1 && mock.load_calls == 1 && mock.init_calls == 1);
  CHECK(strcmp(mock.last.entry, "scale_rows_vec") == 0);
  CHECK(mock.last.grid[0] == 16 && mock.last.grid[1] == 1 && mock.last.grid[2] == 2);
  /* Device 0 (9.0) runs the sm_90a code, which opens with griddepcontrol: a programmatic launch. */
  CHECK(mock.last.block[0] == 256 && mock.last.block[1] == 1 && mock.last.shared_bytes == 0 && mock.last.via_ex &&
        mock.last.pdl && mock.last.cluster[0] == 0);
  CHECK(mock.last.stream == mock_stream(0));
  CHECK(param_u64(0) == x && param_i64(1) == 64 && param_i64(2) == 1);
  CHECK(param_u64(3) == y && param_i64(4) == 64 && param_i64(5) == 1);
  CHECK(param_u64(6) == flags && param_i64(7) == 1 && param_i64(8) == 1000);
  CHECK(param_u16(9) == 0x3e00 && param_u16(10) == 0x4040 && mock.last.params[11][0] == 1);
  CHECK(param_i32(12) == 64 && param_f64(13) == 1e-5 && mock.last.params[14][0] == 7);
  CHECK(mock.last_image == (const void*)mock_scale_rows_metadata.image);

  /* A base that is not 16-byte aligned, or a strided view, takes the general variant. */
  CHECK(mock_scale_rows(NULL, x + 2, y, flags, 1000, 1.5f, 3.0f, false, 64, 1e-5, 7) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "scale_rows_general") == 0 && mock.last.params[11][0] == 0);
  {
    const int64_t shape[2] = {10, 64}, strides[2] = {128, 2}, fshape[1] = {10}, fstrides[1] = {1};
    CHECK(mock_scale_rows_strided(NULL, x, shape, strides, y, shape, strides, flags, fshape, fstrides,
                                  1.0f, 1.0f, true, 4, 0.0, 0) == CUDA_SUCCESS);
    CHECK(strcmp(mock.last.entry, "scale_rows_general") == 0 && param_i64(1) == 128 && param_i64(2) == 2);
    CHECK(mock.last.grid[0] == 3);
  }
  {  /* extent 1 dimensions are never stepped: their strides do not matter */
    const int64_t shape[2] = {1, 64}, strides[2] = {7, 1}, fshape[1] = {1}, fstrides[1] = {5};
    CHECK(mock_scale_rows_strided(NULL, x, shape, strides, y, shape, strides, flags, fshape, fstrides,
                                  1.0f, 1.0f, true, 4, 0.0, 0) == CUDA_SUCCESS);
    CHECK(strcmp(mock.last.entry, "scale_rows_vec") == 0);
  }
  CHECK(mock.load_calls == 1);  /* loaded once */
  /* Device 1 (8.0) runs the sm_80 code, without griddepcontrol: a plain launch. */
  CHECK(mock_scale_rows(mock_stream(1), x, y, flags, 1000, 1.5f, 3.0f, true, 64, 1e-5, 7) == CUDA_SUCCESS);
  CHECK(!mock.last.via_ex && !mock.last.pdl);

  /* Bad arguments: nothing is launched. */
  mock.launches = 0;
  CHECK(mock_scale_rows(NULL, 0, y, flags, 1000, 1.f, 1.f, true, 64, 0.0, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_scale_rows(NULL, x, y, flags, -5, 1.f, 1.f, true, 64, 0.0, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_scale_rows(NULL, x, x + 64, flags, 1000, 1.f, 1.f, true, 64, 0.0, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_scale_rows(NULL, x, y, flags, 1000, 1.f, 1.f, true, 0, 0.0, 0) == CUDA_ERROR_INVALID_VALUE);
  {
    const int64_t s10[2] = {10, 64}, s11[2] = {11, 64}, s32[2] = {10, 32}, st[2] = {64, 1};
    const int64_t f10[1] = {10}, f1[1] = {1}, neg[2] = {-1, 64}, zero_st[2] = {0, 1};
    CHECK(mock_scale_rows_strided(NULL, x, s10, st, y, s11, st, flags, f10, f1, 1.f, 1.f, true, 4, 0.0, 0) ==
          CUDA_ERROR_INVALID_VALUE);  /* m disagrees */
    CHECK(mock_scale_rows_strided(NULL, x, s32, st, y, s32, st, flags, f10, f1, 1.f, 1.f, true, 4, 0.0, 0) ==
          CUDA_ERROR_INVALID_VALUE);  /* the constant 64 disagrees */
    CHECK(mock_scale_rows_strided(NULL, x, neg, st, y, neg, st, flags, f10, f1, 1.f, 1.f, true, 4, 0.0, 0) ==
          CUDA_ERROR_INVALID_VALUE);  /* negative extent */
    CHECK(mock_scale_rows_strided(NULL, x, s10, st, y, s10, zero_st, flags, f10, f1, 1.f, 1.f, true, 4, 0.0, 0) ==
          CUDA_ERROR_INVALID_VALUE);  /* a written array with stride 0 over 10 rows */
  }
  CHECK(mock.launches == 0);

  /* Aliasing: the same view in and out is allowed, as are overlapping read-only arrays. */
  CHECK(mock_scale_rows(NULL, x, x, flags, 1000, 1.f, 1.f, true, 64, 0.0, 0) == CUDA_SUCCESS);
  CHECK(mock_scale_rows(NULL, x, y, x + 16, 1000, 1.f, 1.f, true, 64, 0.0, 0) == CUDA_SUCCESS);
  CHECK(mock_scale_rows(NULL, x, y, y + 16, 1000, 1.f, 1.f, true, 64, 0.0, 0) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock.launches == 2);

  /* Empty: success without launching, loading or touching the driver. */
  mock_reset();
  CHECK(mock_scale_rows(NULL, 0, 0, 0, 0, 1.f, 1.f, true, 64, 0.0, 0) == CUDA_SUCCESS);
  CHECK(mock.launches == 0 && mock.init_calls == 0);
}

static void test_persistent(void) {
  static const size_t sizes[] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
  CUdeviceptr a = (CUdeviceptr)1 << 40, b = (CUdeviceptr)2 << 40, c = (CUdeviceptr)3 << 40;
  uint32_t grid[3];
  mock_reset();
  mock_param_sizes(sizes, 12);
  /* Device 1 (66 SMs) through its stream while device 0 is current. */
  CHECK(mock_persistent_mm(mock_stream(1), a, b, c, 1024, 512, 1024) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "persistent_mm_general") == 0);
  CHECK(mock.last.grid[0] == 128 && mock.last.block[0] == 384 && mock.last.shared_bytes == 200 * 1024);
  CHECK(mock.last.via_ex && mock.last.cluster[0] == 2 && mock.last.cluster[1] == 1 && mock.last.cluster[2] == 1 &&
        !mock.last.pdl);  /* device 1 is 8.0 */
  CHECK(mock.set_attribute_calls == 1 && mock.last_attribute_device == 1 && mock.last_attribute_value == 200 * 1024);
  CHECK(mock.push_calls == mock.pop_calls && mock.push_calls > 0);
  CHECK(param_i64(9) == 1024 && param_i64(10) == 512 && param_i64(11) == 1024);  /* m, k, n */
  CHECK(param_i64(1) == 512 && param_i64(4) == 1024 && param_i64(7) == 1024);    /* row strides */
  CHECK(mock_persistent_mm(mock_stream(1), a, b, c, 1024, 512, 1024) == CUDA_SUCCESS);
  CHECK(mock.set_attribute_calls == 1);  /* once per device */
  CHECK(mock_persistent_mm(NULL, a, b, c, 100000, 512, 100000) == CUDA_SUCCESS);
  CHECK(mock.set_attribute_calls == 2 && mock.last_attribute_device == 0 && mock.last.grid[0] == 264);
  CHECK(mock_persistent_mm_grid(1024, 512, 1024, grid) == CUDA_SUCCESS && grid[0] == 128);
  mock_set_current(-1);
  CHECK(mock_persistent_mm_grid(1024, 512, 1024, grid) == CUDA_ERROR_INVALID_CONTEXT);
  mock_set_current(0);
}

/* An sm_90a path before the portable one: CC 9.0 devices take it, others the portable one;
   an image without its entries (an sm_80-only build) never takes it. */
static void test_paths(void) {
  static const size_t sizes[] = {8, 8, 8, 8, 8, 8, 8, 8};
  CUdeviceptr a = (CUdeviceptr)1 << 40, c = (CUdeviceptr)2 << 40;
  int64_t shape[2] = {1000, 64}, strides[2] = {64, 1};
  mock_reset();
  mock_param_sizes(sizes, 8);
  CHECK(mock_two_paths(mock_stream(0), a, c, 1000, 64) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "two_paths_sm90a_v16") == 0);
  CHECK(mock.last.block[0] == 256 && mock.last.shared_bytes == 160 * 1024 && mock.last.grid[0] == 8);
  CHECK(mock.set_attribute_calls == 1 && mock.last_attribute_value == 160 * 1024);
  CHECK(mock_two_paths(mock_stream(1), a, c, 1000, 64) == CUDA_SUCCESS);  /* CC 8.0 */
  CHECK(strcmp(mock.last.entry, "two_paths_v16") == 0);
  CHECK(mock.last.block[0] == 128 && mock.last.shared_bytes == 96 * 1024);
  CHECK(mock.set_attribute_calls == 2 && mock.last_attribute_value == 96 * 1024 && mock.last_attribute_device == 1);
  CHECK(mock_two_paths(mock_stream(3), a, c, 1000, 64) == CUDA_SUCCESS);  /* CC 8.6 */
  CHECK(strcmp(mock.last.entry, "two_paths_v16") == 0);
  /* An empty launch returns before any driver call, though the kernel asks for the stream's
     device when it launches (docs/header.md "Errors are values"). */
  {
    int calls = mock.driver_calls, launches = mock.launches;
    CHECK(mock_two_paths(mock_stream(0), a, c, 0, 64) == CUDA_SUCCESS);
    CHECK(mock.driver_calls == calls && mock.launches == launches);
  }
  /* Unaligned rows: the general variant of whichever path the device takes. */
  strides[0] = 65;
  CHECK(mock_two_paths_strided(mock_stream(2), a, shape, strides, c, shape, strides) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "two_paths_sm90a") == 0);
  CHECK(mock_two_paths_strided(mock_stream(1), a, shape, strides, c, shape, strides) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "two_paths") == 0);
  /* The compute capability is asked once per device. */
  {
    int queries = mock.cc_queries;
    CHECK(mock_two_paths(mock_stream(0), a, c, 1000, 64) == CUDA_SUCCESS);
    CHECK(mock.cc_queries == queries);
  }
  /* An image whose code lacks the sm_90a entries: loaded again, the path is never taken. */
  CHECK(mock_two_paths_unload() == CUDA_SUCCESS);
  mock_set_missing_entry("two_paths_sm90a_v16");
  CHECK(mock_two_paths(mock_stream(0), a, c, 1000, 64) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "two_paths_v16") == 0 && mock.last.block[0] == 128);
  /* A portable entry that cannot be found fails the launch. */
  CHECK(mock_two_paths_unload() == CUDA_SUCCESS);
  mock_set_missing_entry("two_paths");
  CHECK(mock_two_paths(mock_stream(0), a, c, 1000, 64) == CUDA_ERROR_NOT_FOUND);
  mock_set_missing_entry(NULL);
  CHECK(mock_two_paths_metadata.num_paths == 2 && strcmp(mock_two_paths_metadata.paths[0].arch, "sm_90a") == 0);
  CHECK(mock_two_paths_metadata.paths[1].arch == NULL && mock_two_paths_metadata.paths[1].num_stages == 3);
  CHECK(strcmp(mock_two_paths_metadata.paths[0].variant_entries[1], "two_paths_sm90a") == 0);
}

/* A TMA path: taken on CC 9.0 when the arrays are aligned and every tensor map encodes; its
   parameters start with the maps. Else the portable path. */
static void test_tma_path(void) {
  static const size_t sizes[] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
  CUdeviceptr a = (CUdeviceptr)1 << 40, b = (CUdeviceptr)2 << 40, c = (CUdeviceptr)3 << 40;
  int64_t a_shape[2] = {1000, 512}, b_shape[2] = {512, 768}, c_shape[2] = {1000, 768};
  int64_t a_strides[2] = {512, 1}, b_strides[2] = {776, 1}, c_strides[2] = {768, 1};
  uint64_t tag;
  mock_reset();
  mock_param_sizes(sizes, 14);
  CHECK(mock_tma_mm(mock_stream(0), a, b, c, 1000, 512, 768) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "tma_mm_wgmma") == 0);
  CHECK(mock.last.block[0] == 256 && mock.last.shared_bytes == 197 * 1024 && mock.last.grid[0] == 8 * 3);
  CHECK(mock.encode_calls == 2);
  /* The second map is B's: dims innermost first, the row stride in bytes, the box. */
  CHECK(mock.last_map.rank == 2 && mock.last_map.bf16 && mock.last_map.address == (uint64_t)b);
  CHECK(mock.last_map.dim[0] == 768 && mock.last_map.dim[1] == 512 && mock.last_map.stride[0] == 768 * 2);
  CHECK(mock.last_map.box[0] == 64 && mock.last_map.box[1] == 64);
  memcpy(&tag, mock.last.params[0], 8);
  CHECK(tag == 0x7A9000000001ull);
  memcpy(&tag, mock.last.params[1], 8);
  CHECK(tag == 0x7A9000000002ull);
  CHECK(param_i64(2) == (int64_t)a && param_i64(3) == 512 && param_i64(11) == 1000);  /* A, its row stride, m */
  /* Rows padded to 16 bytes keep the path; the map gets the padded stride. */
  CHECK(mock_tma_mm_strided(mock_stream(0), a, a_shape, a_strides, b, b_shape, b_strides, c, c_shape, c_strides) ==
        CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "tma_mm_wgmma") == 0 && mock.last_map.stride[0] == 776 * 2);
  /* Rows that break the 16-byte rule: the portable general variant (12 parameters). */
  mock_param_sizes(sizes, 12);
  b_strides[0] = 770;
  CHECK(mock_tma_mm_strided(mock_stream(0), a, a_shape, a_strides, b, b_shape, b_strides, c, c_shape, c_strides) ==
        CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "tma_mm") == 0 && mock.last.block[0] == 128);
  /* K = 0: no tensor map has a zero extent, so the portable path (which writes zeros). */
  CHECK(mock_tma_mm(mock_stream(0), a, b, c, 1000, 0, 768) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "tma_mm_v16") == 0);
  /* Another compute capability: the portable path, no maps encoded. */
  {
    int encodes = mock.encode_calls;
    CHECK(mock_tma_mm(mock_stream(1), a, b, c, 1000, 512, 768) == CUDA_SUCCESS);
    CHECK(strcmp(mock.last.entry, "tma_mm_v16") == 0 && mock.encode_calls == encodes);
  }
  CHECK(mock_tma_mm_metadata.paths[0].num_tensor_maps == 2 && mock_tma_mm_metadata.paths[0].tensor_maps[1].param == 1);
  CHECK(mock_tma_mm_metadata.paths[0].tensor_maps[0].box[1] == 128 && mock_tma_mm_metadata.paths[1].num_tensor_maps == 0);
}

static void test_vector_extents(void) {
  static const size_t sizes[] = {8, 8, 8, 8, 8};
  CUdeviceptr a = 0x5000000, b = 0x6000000;
  int calls, launches;
  mock_reset();
  mock_param_sizes(sizes, 5);
  /* Arrays moved in 16-byte vectors: 1000 f32 are 250 vectors; 1001 would leave a partial one. */
  CHECK(mock_copy_vec(NULL, a, b, 1000) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "copy_vec_v16") == 0 && mock.last.grid[0] == 1);
  CHECK(mock_copy_vec(NULL, a, b, 1001) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "copy_vec") == 0);
  CHECK(mock_copy_vec(NULL, a, b, 4) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "copy_vec_v16") == 0);
  CHECK(mock_copy_vec(NULL, a, b, 2) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "copy_vec") == 0);
  CHECK(mock_copy_vec(NULL, a, b, 0) == CUDA_SUCCESS);  /* empty: nothing to check */
  /* The assert on extents (n <= 4096) fails: a bad argument, refused before any driver call
     (the general variant's device assert would end the CUDA context), vectors or not. */
  CHECK(mock_copy_vec(NULL, a, b, 4096) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "copy_vec_v16") == 0);
  calls = mock.driver_calls;
  launches = mock.launches;
  CHECK(mock_copy_vec(NULL, a, b, 8192) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_copy_vec(NULL, a, b, 8193) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock.driver_calls == calls && mock.launches == launches);
  CHECK(mock_copy_vec(NULL, a, b, 4095) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "copy_vec") == 0 && mock.launches == launches + 1);
}

static void test_fill_and_loading(void) {
  static const size_t sizes[] = {8, 8};
  CUdeviceptr out = 0x4000000;
  mock_reset();
  mock_param_sizes(sizes, 2);
  CHECK(mock_fill_one(NULL, out, 10) == CUDA_SUCCESS && mock.last.grid[0] == 2 && param_i64(1) == 10);
  CHECK(mock_fill_one(NULL, out, 3) == CUDA_SUCCESS && mock.launches == 1);  /* grid 0: no launch */
  CHECK(mock_fill_one(NULL, out, -1) == CUDA_ERROR_INVALID_VALUE);         /* floordiv(-1, 4) = -1 */
  CHECK(mock_fill_one(NULL, 0, 10) == CUDA_ERROR_INVALID_VALUE);           /* rank 0 holds one element */

  /* Unload, then a failing load that is retried by the next launch. */
  CHECK(mock_fill_one_unload() == CUDA_SUCCESS && mock.unload_calls == 1);
  CHECK(mock_fill_one_unload() == CUDA_SUCCESS && mock.unload_calls == 1);
  mock.init_result = CUDA_ERROR_NO_DEVICE;
  CHECK(mock_fill_one(NULL, out, 10) == CUDA_ERROR_NO_DEVICE);
  mock.init_result = CUDA_SUCCESS;
  mock.load_calls = 0;
  CHECK(mock_fill_one(NULL, out, 10) == CUDA_SUCCESS && mock.load_calls == 1);

  /* The other translation units share the definitions and the loaded state. */
  CHECK(tu2_metadata() == &mock_fill_one_metadata && tu3_metadata() == &mock_fill_one_metadata);
  CHECK(tu2_fill(out, 10) == CUDA_SUCCESS && mock.load_calls == 1 && mock.launches == 3);

  /* An explicit load puts every variant into the current context. */
  CHECK(mock_scale_rows_unload() == CUDA_SUCCESS);
  mock.get_function_calls = 0;
  CHECK(mock_scale_rows_load() == CUDA_SUCCESS && mock.get_function_calls == 2);
}

static void* launch_from_thread(void* arg) {
  CUdeviceptr out = 0x5000000;
  *(CUresult*)arg = mock_fill_one(NULL, out, 10);
  return NULL;
}

static void test_threads(void) {
  pthread_t threads[8];
  CUresult results[8];
  int i;
  CHECK(mock_fill_one_unload() == CUDA_SUCCESS);
  mock_reset();
  mock.load_delay_ms = 50;  /* every thread arrives while the first is still loading */
  for (i = 0; i < 8; ++i) pthread_create(&threads[i], NULL, launch_from_thread, &results[i]);
  for (i = 0; i < 8; ++i) pthread_join(threads[i], NULL);
  for (i = 0; i < 8; ++i) CHECK(results[i] == CUDA_SUCCESS);
  CHECK(mock.load_calls == 1);
}

static void test_metadata(void) {
  const tilec_kernel_metadata* m = &mock_scale_rows_metadata;
  CHECK(m->abi_version == 6 && MOCK_SCALE_ROWS_TILEC_ABI_VERSION == 6);
  CHECK(strcmp(m->name, "scale_rows") == 0 && strcmp(m->source, "mock kernels \"odd\" name.tile") == 0);
  CHECK(m->num_params == 9 && strcmp(m->params[0].name, "x") == 0 && strcmp(m->params[0].dtype, "f16") == 0);
  CHECK(m->params[0].rank == 2 && strcmp(m->params[0].dims[0], "m") == 0 && strcmp(m->params[0].dims[1], "64") == 0);
  CHECK(m->params[0].may_write == 0 && m->params[1].may_write == 1 && m->params[2].elem_bytes == 1);
  CHECK(m->params[3].kind == TILEC_PARAM_SCALAR && m->params[3].elem_bytes == 2 && m->params[3].dims == NULL);
  CHECK(m->num_dim_symbols == 1 && strcmp(m->dim_symbols[0], "m") == 0);
  CHECK(m->num_constants == 2 && strcmp(m->constants[1].name, "SCALE") == 0 && strcmp(m->constants[1].value, "0.5") == 0);
  CHECK(strcmp(m->grid[0], "tilec_cdiv(m, rows_per_cta)") == 0 && strcmp(m->grid[2], "2") == 0);
  CHECK(m->num_paths == 1 && m->paths[0].arch == NULL && strcmp(m->paths[0].name, "portable") == 0);
  CHECK(m->paths[0].num_warps == 8 && m->paths[0].threads_per_cta == 256 && m->paths[0].num_variants == 2);
  CHECK(m->num_archs == 2 && strcmp(m->archs[1], "sm_90a") == 0 && strcmp(m->ptx_arch, "sm_80") == 0);
  CHECK(m->image_bytes == 13 && memcmp(m->image, "\x50\xed\x55\xba\x01\x00\x10\x00tilec", 13) == 0);
  CHECK(mock_persistent_mm_metadata.paths[0].dynamic_shared_bytes == 200 * 1024 &&
        mock_persistent_mm_metadata.paths[0].cluster_dims[0] == 2 && mock_persistent_mm_metadata.paths[0].num_stages == 4);
  CHECK(strcmp(mock_persistent_mm_metadata.grid[0],
               "tilec_min(num_sms, tilec_cdiv(m, 128) * tilec_cdiv(n, 128)) * 2") == 0);
}

/* n / d through the magic number of d, as the kernels compute it (kernel_abi.h, launch
   divisors): t = mulhi(n, m); q = (t + ((n - t) >> s1)) >> s2, a shift by 32 giving 0. */
static uint32_t magic_quotient(uint32_t n, const uint32_t mg[3]) {
  uint32_t t = (uint32_t)(((uint64_t)n * mg[0]) >> 32);
  uint32_t u = (n - t) >> mg[1];
  return mg[2] >= 32 ? 0 : (t + u) >> mg[2];
}

/* tilec_divisor_magic against C's division: every d below 2^12 and d near powers of two up to
   2^32 - 1, with dividends at the edges (0, d - 1, d, multiples of d, 2^31, 2^32 - 1) and from
   a fixed pseudo-random sequence. */
static void test_divisor_magic(void) {
  static const uint32_t fixed[] = {0u, 1u, 2u, 3u, 7u, 1000u, 65535u, 65536u, 0x7fffffffu, 0x80000000u,
                                   0x80000001u, 0xfffffffeu, 0xffffffffu};
  uint64_t d, state = 0x9e3779b97f4a7c15ull;
  uint32_t mg[3];
  int bad = 0, i, k;
  for (k = 0; k < 4096 + 33 * 5; ++k) {
    if (k < 4096) {
      d = (uint64_t)k + 1;
    } else {  /* 2^j - 2 .. 2^j + 2 for j = 0 .. 32, within 1 .. 2^32 - 1 */
      int j = (k - 4096) / 5;
      d = ((uint64_t)1 << j) + (uint64_t)((k - 4096) % 5) - 2;
      if (d == 0 || d >= ((uint64_t)1 << 32)) continue;
    }
    tilec_divisor_magic(d, mg);
    for (i = 0; i < 13 + 6 + 64; ++i) {
      uint64_t n;
      if (i < 13) {
        n = fixed[i];
      } else if (i < 19) {
        uint64_t edge[6] = {d - 1, d, d + 1, 2 * d - 1, 2 * d, 0xffffffffull / d * d};
        n = edge[i - 13];
      } else {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        n = state >> 32;
      }
      if (n > 0xffffffffull) continue;
      if (magic_quotient((uint32_t)n, mg) != (uint32_t)(n / d)) ++bad;
    }
  }
  CHECK(bad == 0);
  /* 64-bit divisors of 2^32 and above: the quotient of a 32-bit dividend is 0. */
  tilec_divisor_magic((uint64_t)1 << 32, mg);
  CHECK(magic_quotient(0xffffffffu, mg) == 0 && magic_quotient(5, mg) == 0);
  tilec_divisor_magic(~(uint64_t)0, mg);
  CHECK(magic_quotient(0xffffffffu, mg) == 0);
  tilec_divisor_magic(0, mg);  /* unspecified: n itself, no trap */
  CHECK(magic_quotient(77, mg) == 77);
  CHECK(tilec_floordiv_wrap(INT64_MIN, -1) == INT64_MIN && tilec_floordiv_wrap(INT64_MIN, 2048) == -((int64_t)1 << 52));
  CHECK(tilec_floordiv_wrap(-7, 2) == -4 && tilec_floordiv_wrap(7, 0) == INT64_MIN && tilec_floordiv_wrap(5, INT64_MIN) == -1);
}

/* split_rows: x f32[m, n], y f32[m, n]; g i64, h i32; four launch divisors after the scalars:
   u32 cdiv(n, 256), i32 h, i64 g // 2, u64 n, each with its magic number. */
static void test_launch_divisors(void) {
  static const size_t sizes[] = {8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 4, 4, 4, 8, 4, 4, 4};
  CUdeviceptr x = (CUdeviceptr)1 << 40, y = (CUdeviceptr)2 << 40;
  uint32_t mg[3];
  int i;
  mock_reset();
  mock_param_sizes(sizes, 26);
  CHECK(mock_split_rows(mock_stream(0), x, y, 1000, 3000, 14, 7) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "split_rows_v16") == 0 && mock.last.grid[0] == 1000 * 12);
  CHECK(param_i64(6) == 1000 && param_i64(7) == 3000 && param_i64(8) == 14 && param_i32(9) == 7);
  /* each divisor, then the magic number its quotients come from */
  CHECK(param_i32(10) == 12 && param_i32(14) == 7 && param_i64(18) == 7 && param_i64(22) == 3000);
  for (i = 0; i < 4; ++i) {
    int at = 10 + 4 * i;
    uint64_t d = i == 2 || i == 3 ? param_u64(at) : (uint64_t)(uint32_t)param_i32(at);
    memcpy(mg, &mock.last.params[at + 1][0], 4);
    memcpy(&mg[1], &mock.last.params[at + 2][0], 4);
    memcpy(&mg[2], &mock.last.params[at + 3][0], 4);
    CHECK(magic_quotient(11999, mg) == (uint32_t)(11999 / d));
    CHECK(magic_quotient(0xffffffffu, mg) == (uint32_t)(0xffffffffull / d));
  }
  CHECK(mock_split_rows_metadata.paths[0].num_divisors == 4);
  CHECK(strcmp(mock_split_rows_metadata.paths[0].divisors[0], "(int64_t)(uint32_t)(tilec_cdiv(n, INT64_C(256)))") == 0);
  CHECK(strcmp(mock_split_rows_metadata.paths[0].divisor_dtypes[3], "u64") == 0);
  CHECK(mock_scale_rows_metadata.paths[0].num_divisors == 0 && mock_scale_rows_metadata.paths[0].divisors == NULL);
}

int main(void) {
  test_conversions();
  test_divisor_magic();
  test_launch_divisors();
  test_scale_rows();
  test_persistent();
  test_vector_extents();
  test_paths();
  test_tma_path();
  test_fill_and_loading();
  test_threads();
  test_metadata();
  if (failures) fprintf(stderr, "%d checks failed\n", failures);
  else printf("mock run test: all checks passed\n");
  return failures ? 1 : 0;
}
