/* Which configuration a launch takes (docs/tuning.md), against the fake driver: mock_pick_mm of
   make_test_header.cpp, declared with configurations 0, 2 and 3 (1 left out of the build) and a
   tuning table with a section for "Mock H100" and one for 8.0 devices of 66 SMs. Every expected
   index below is worked out by hand from the documented rules, in the comment beside it:

   - tilec_log2_q8(x) = 256 * lead + the next eight bits (x < 256: shifted up): 64 -> 1536,
     90 -> 1640, 100 -> 1680, 110 -> 1720, 128 -> 1792, 512 -> 2304, 600 -> 2348,
     1000 -> 2548, 1001 -> 2548, 1002 -> 2549, 1024 -> 2560, 2000 -> 2804, 4096 -> 3072,
     8192 -> 3328. A row's distance is the sum over m and n of the squared differences.
   - tilec_estimate: resident = min(CTAs, threads / threads per CTA, shared / (bytes + 1024)) per
     multiprocessor (1 when persistent); waves = cdiv(ctas, sms * resident); the estimate is
     waves * min(cdiv(ctas, sms), resident) * work. Works: 16384 (0), 4096 (2), 32768 (3).

   Devices (mock_cuda.h; each is read once and cached, so their limits and names are set first):
   0 "Mock H100" 9.0, 132 SMs; 1 "Mock Other" 8.0, 66 SMs, an A100's limits (2048, 32, 167936);
   2 "Mock Other" 9.0, 44 SMs; 3 "Mock Other" 8.6, 33 SMs, limits 1536, 16, 102400;
   4 named "Mock H100" here, 8.0, 26 SMs; 5 "Mock Other" 9.0, 22 SMs (only empty launches). */
#define _POSIX_C_SOURCE 200809L /* setenv, fork */
#include "mock_kernels.h"
#include "mock_check.h"
#include "mock_cuda.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

void test_choice(void);

static const CUdeviceptr A = (CUdeviceptr)1 << 40, C = (CUdeviceptr)2 << 40;
static const size_t first_param[1] = {8};

static int launched(const char* entry, unsigned grid, unsigned threads) {
  return strcmp(mock.last.entry, entry) == 0 && mock.last.grid[0] == grid && mock.last.grid[1] == 1 &&
         mock.last.block[0] == threads;
}

static int param_is_a(void) {
  uint64_t v;
  memcpy(&v, mock.last.params[0], 8);
  return v == A;
}

static unsigned grid_of(int64_t m, int64_t n) {
  uint32_t grid[3] = {0, 0, 0};
  if (mock_pick_mm_grid(m, n, grid) != CUDA_SUCCESS) return 0xffffffffu;
  return grid[0] * grid[1] * grid[2];
}

/* ---- TILEC_CONFIG_mock_pick_mm (read once per process): each value in a child process ---- */

static void with_environment(const char* value, void (*body)(void)) {
  pid_t pid;
  int status = 0;
  fflush(stdout);
  fflush(stderr);
  pid = fork();
  if (pid == 0) {
    setenv("TILEC_CONFIG_mock_pick_mm", value, 1);
    mock_reset();
    mock_param_sizes(first_param, 1);
    body();
    _exit(mock_failures ? 1 : 0);
  }
  CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void forced_0(void) {
  /* The table says 3 for 4096 x 4096 on device 0. */
  CHECK(mock_pick_mm_config(mock_stream(0), 4096, 4096) == 0);
  CHECK(mock_pick_mm(mock_stream(0), A, C, 4096, 4096) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config0_sm90a_v16", 32 * 32, 256));
  CHECK(grid_of(4096, 4096) == 32 * 32);
}

static void forced_2(void) {
  /* 2 where it is eligible (the table says 0 for 1024 x 1024); where its assert n <= 1024
     fails, k_config says -1 and the launch fails without launching. */
  CHECK(mock_pick_mm_config(mock_stream(0), 1024, 1024) == 2);
  CHECK(mock_pick_mm(mock_stream(0), A, C, 1024, 1024) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config2_v16", 16 * 16, 128));
  CHECK(mock_pick_mm_config(mock_stream(0), 128, 2048) == -1);
  CHECK(mock_pick_mm(mock_stream(0), A, C, 128, 2048) == CUDA_ERROR_INVALID_VALUE && mock.launches == 1);
}

static void forced_absent(void) {
  /* 1 is left out of the build, 9 is past the configurations: nothing is eligible. */
  CHECK(mock_pick_mm_config(mock_stream(0), 1024, 1024) == -1);
  CHECK(mock_pick_mm(mock_stream(0), A, C, 1024, 1024) == CUDA_ERROR_INVALID_VALUE);
  CHECK(grid_of(1024, 1024) == 0xffffffffu);
  CHECK(mock.launches == 0);
}

static void not_a_number(void) {
  CHECK(mock_pick_mm_config(mock_stream(0), 1024, 1024) == 0);  /* ignored: the table's row */
}

/* ---- the choice ---- */

/* Device 0 by its name: the table's section "Mock H100". */
static void table_by_name(void) {
  CHECK(mock_pick_mm_config(mock_stream(0), 4096, 4096) == 3);  /* rows: exact */
  CHECK(mock_pick_mm_config(mock_stream(0), 128, 512) == 2);
  CHECK(mock_pick_mm_config(mock_stream(0), 1024, 1024) == 0);
  /* (100, 600) = (1680, 2348): row (128, 512) at 112^2 + 44^2 = 14480, (1024, 1024) at
     880^2 + 212^2 = 819344, (4096, 4096) at 1392^2 + 724^2 = 2461840. */
  CHECK(mock_pick_mm_config(mock_stream(0), 100, 600) == 2);
  /* (128, 4096) = (1792, 3072): row (128, 512) is nearest (768^2), but its configuration 2 is
     not eligible for n = 4096; then (1024, 1024) at 768^2 + 512^2 = 851968 before (4096, 4096)
     at 1280^2 = 1638400. */
  CHECK(mock_pick_mm_config(mock_stream(0), 128, 4096) == 0);
  CHECK(mock.name_queries[0] == 1 && mock.limit_queries == 3);

  /* The launches take those configurations: on 9.0 configuration 0's sm_90a path; 3 is
     persistent (min(512 CTAs, 132 SMs)); k_grid gives the chosen one's (logical) grid. */
  CHECK(mock_pick_mm(mock_stream(0), A, C, 1024, 1024) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config0_sm90a_v16", 8 * 8, 256) && mock.last.shared_bytes == 128 * 1024);
  CHECK(mock_pick_mm(mock_stream(0), A, C, 4096, 4096) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config3_v16", 132, 384) && mock.last.shared_bytes == 200 * 1024);
  CHECK(mock_pick_mm(mock_stream(0), A, C, 128, 512) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config2_v16", 2 * 8, 128) && param_is_a());
  CHECK(grid_of(4096, 4096) == 16 * 32 && grid_of(128, 512) == 2 * 8 && grid_of(1024, 1024) == 8 * 8);
  CHECK(mock.name_queries[0] == 1 && mock.limit_queries == 3);  /* read once */
}

/* Device 1 ("Mock Other", 8.0, 66 SMs) by its numbers: the section "Mock A100 by numbers". */
static void table_by_numbers(void) {
  CHECK(mock_pick_mm_config(mock_stream(1), 1000, 1000) == 0);
  /* 1000 and 1001 are both 2548: row (1000, 1000) is at distance 0 too, but the exact row wins. */
  CHECK(mock_pick_mm_config(mock_stream(1), 1001, 1000) == 2);
  /* (1002, 1000): both rows at 1^2; the first. */
  CHECK(mock_pick_mm_config(mock_stream(1), 1002, 1000) == 0);
  /* (90, 110) = (1640, 1720): row (100, 100) at 40^2 + 40^2 = 3200. */
  CHECK(mock_pick_mm_config(mock_stream(1), 90, 110) == 2);
  /* (64, 2000) = (1536, 2804): the rows of 2 are not eligible (n > 1024); (1000, 1000) at
     1012^2 + 256^2 = 1089680 before (8192, 8192) at 1792^2 + 524^2 = 3485840. */
  CHECK(mock_pick_mm_config(mock_stream(1), 64, 2000) == 0);
  mock_set_current(1);  /* k_grid asks the current context's device */
  CHECK(grid_of(1001, 1000) == 16 * 16);
  mock_set_current(0);
  CHECK(mock.name_queries[1] == 1);
}

/* Device 4 is named "Mock H100": that section, though its numbers (8.0, 26 SMs) are not the
   section's. The estimate would say 2 for 1024 x 1024: 0 at 1 wave * min(3, 3) * 16384 = 49152
   (64 CTAs, 3 resident), 2 at 1 * min(10, 13) * 4096 = 40960 (256 CTAs, 13 resident). */
static void name_before_numbers(void) {
  CHECK(mock_pick_mm_config(mock_stream(4), 1024, 1024) == 0);
  CHECK(mock_pick_mm_config(mock_stream(4), 4096, 4096) == 3);
}

/* Devices 2 and 3 match no section: the estimate. */
static void heuristic(void) {
  int64_t shape[2] = {1280, 2048}, strides[2] = {2049, 1};
  /* Device 3 (33 SMs; resident: 0 one (65 KiB of 100 KiB), 2 five (17 KiB), 3 one).
     1024 x 1024: 0 = 2 waves * 1 * 16384 = 32768 (64 CTAs); 2 = 2 * min(8, 5) * 4096 = 40960
     (256 CTAs); 3 = 1 * 1 * 32768 (32 CTAs): a tie, the first declared. */
  CHECK(mock_pick_mm_config(mock_stream(3), 1024, 1024) == 0);
  /* 256 x 256: 0 = 16384 (4 CTAs), 2 = 4096 (16 CTAs), 3 = 32768 (2 CTAs). */
  CHECK(mock_pick_mm_config(mock_stream(3), 256, 256) == 2);
  CHECK(mock_pick_mm_config(mock_stream(3), 64, 1024) == 2);   /* 16384, 4096, 32768 */
  /* 64 x 2048: 2 would be 4096 (32 CTAs) but n > 1024; 0 = 16384, 3 = 32768. */
  CHECK(mock_pick_mm_config(mock_stream(3), 64, 2048) == 0);
  CHECK(mock_pick_mm(mock_stream(3), A, C, 64, 2048) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config0_v16", 16, 128));  /* 8.6: the portable path */

  /* Device 2 (9.0, 44 SMs), 1280 x 2048 (2 not eligible). Aligned, 0 takes its sm_90a path
     (256 threads, 128 KiB: 1 resident): 4 waves * 1 * 16384 = 65536 (160 CTAs); 3: 2 waves *
     1 * 32768 = 65536 (80 CTAs); a tie, 0. Rows of 2049 floats are not 16-byte aligned: 0's
     portable path (128 threads, 64 KiB: 3 resident), 2 waves * min(4, 3) * 16384 = 98304, so 3. */
  CHECK(mock_pick_mm_config(mock_stream(2), 1280, 2048) == 0);
  CHECK(mock_pick_mm(mock_stream(2), A, C, 1280, 2048) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config0_sm90a_v16", 160, 256));
  CHECK(mock_pick_mm_strided(mock_stream(2), A, shape, strides, C, shape, strides) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config3", 44, 384));
}

/* k_launch_config: that configuration, whatever the choice; one not built, past the end or
   not eligible is refused before the driver. */
static void forced_launches(void) {
  int64_t shape[2] = {1280, 2048}, strides[2] = {2049, 1};
  int calls, launches, bad[4] = {1, 4, -1, 1000}, i;
  CHECK(mock_pick_mm_launch_config(0, mock_stream(0), A, C, 128, 512) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config0_sm90a_v16", 1 * 4, 256));
  CHECK(mock_pick_mm_launch_config(3, mock_stream(0), A, C, 128, 512) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config3_v16", 4, 384));
  CHECK(mock_pick_mm_launch_config(2, mock_stream(0), A, C, 4096, 1024) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config2_v16", 64 * 16, 128) && param_is_a());
  CHECK(mock_pick_mm_launch_config_strided(0, mock_stream(3), A, shape, strides, C, shape, strides) == CUDA_SUCCESS);
  CHECK(launched("pick_mm_config0", 10 * 16, 128));
  calls = mock.driver_calls;
  launches = mock.launches;
  for (i = 0; i < 4; ++i) CHECK(mock_pick_mm_launch_config(bad[i], mock_stream(0), A, C, 128, 512) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_pick_mm_launch_config(2, mock_stream(0), A, C, 128, 2048) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_pick_mm_launch_config_strided(1, mock_stream(3), A, shape, strides, C, shape, strides) ==
        CUDA_ERROR_INVALID_VALUE);
  CHECK(mock.driver_calls == calls && mock.launches == launches);
}

/* An empty launch (every eligible configuration's grid empty) touches no driver, with a choice
   too; k_config then names the first such configuration. */
static void empty_launches(void) {
  int calls = mock.driver_calls, launches = mock.launches;
  CHECK(mock_pick_mm(mock_stream(5), A, C, 0, 512) == CUDA_SUCCESS);
  CHECK(mock_pick_mm(mock_stream(5), A, C, 64, 0) == CUDA_SUCCESS);
  CHECK(mock_pick_mm_config(mock_stream(5), 0, 2048) == 0);
  CHECK(grid_of(0, 512) == 0);
  CHECK(mock_pick_mm_config(mock_stream(5), -1, 512) == -1);
  CHECK(mock.driver_calls == calls && mock.launches == launches && mock.name_queries[5] == 0);
}

/* The other kernels have one configuration, index 0, and never read the environment or the
   device for it. */
static void single_configuration(void) {
  int calls = mock.driver_calls;
  CHECK(mock_copy_vec_config(mock_stream(0), 100) == 0);
  CHECK(mock_copy_vec_config(mock_stream(0), 8192) == -1);  /* assert n <= 4096 */
  CHECK(mock_copy_vec_config(mock_stream(0), -1) == -1);
  CHECK(mock_fill_one_config(mock_stream(1), 3) == 0);
  CHECK(mock.driver_calls == calls);
  CHECK(mock_copy_vec_launch_config(0, NULL, A, C, 1000) == CUDA_SUCCESS);
  CHECK(strcmp(mock.last.entry, "copy_vec_v16") == 0);
  calls = mock.driver_calls;
  CHECK(mock_copy_vec_launch_config(1, NULL, A, C, 1000) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock_copy_vec_launch_config(-1, NULL, A, C, 1000) == CUDA_ERROR_INVALID_VALUE);
  CHECK(mock.driver_calls == calls);
}

static void metadata(void) {
  const tilec_kernel_metadata* m = &mock_pick_mm_metadata;
  CHECK(m->num_configs == 4 && m->num_tuning_sections == 2 && strcmp(m->config_space, "0123456789abcdef") == 0);
  CHECK(strcmp(m->configs[0].label, "BM=128, BN=128") == 0 && m->configs[1].label == NULL &&
        m->configs[1].num_paths == 0 && strcmp(m->configs[3].label, "BM=256, BN=128, persistent=True") == 0);
  CHECK(m->configs[0].num_paths == 2 && strcmp(m->configs[0].paths[0].arch, "sm_90a") == 0);
  CHECK(strcmp(m->configs[2].grid[0], "tilec_cdiv(m, 64) * tilec_cdiv(n, 64)") == 0 && strcmp(m->configs[2].grid[1], "1") == 0);
  CHECK(m->configs[3].paths[0].persistent == 1 && m->configs[3].paths[0].dynamic_shared_bytes == 200 * 1024);
  /* The kernel's own grid and paths are its first configuration's. */
  CHECK(strcmp(m->grid[0], "tilec_cdiv(m, 128) * tilec_cdiv(n, 128)") == 0 && m->paths == m->configs[0].paths);
  CHECK(mock_scale_rows_metadata.num_configs == 1 && strcmp(mock_scale_rows_metadata.configs[0].label, "") == 0);
  CHECK(mock_scale_rows_metadata.config_space == NULL && mock_scale_rows_metadata.num_tuning_sections == 0);
}

void test_choice(void) {
  with_environment("0", forced_0);
  with_environment("2", forced_2);
  with_environment("1", forced_absent);
  with_environment("9", forced_absent);
  with_environment("x2", not_a_number);

  mock_reset();
  mock_param_sizes(first_param, 1);
  mock_set_limits(1, 2048, 32, 167936);
  mock_set_limits(3, 1536, 16, 102400);
  mock_set_device_name(4, "Mock H100");
  table_by_name();
  table_by_numbers();
  name_before_numbers();
  heuristic();
  forced_launches();
  empty_launches();
  single_configuration();
  metadata();
  /* Each device was described once: its name and its three limits. */
  CHECK(mock.name_queries[0] == 1 && mock.name_queries[1] == 1 && mock.name_queries[2] == 1 &&
        mock.name_queries[3] == 1 && mock.name_queries[4] == 1 && mock.name_queries[5] == 0);
  CHECK(mock.limit_queries == 5 * 3);
}
