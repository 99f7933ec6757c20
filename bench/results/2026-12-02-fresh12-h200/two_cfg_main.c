#include <stdio.h>
#include <cuda.h>
int run_d64(void);
int run_d128(void);
int main(void) {
  CUdevice dev; CUcontext ctx; int a, b;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 2;
  a = run_d64(); b = run_d128();
  printf("two_cfg: %s\n", a == 0 && b == 0 ? "PASS" : "FAIL");
  return a || b;
}
