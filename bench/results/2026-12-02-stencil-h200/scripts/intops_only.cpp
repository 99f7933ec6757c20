// Runs check_ops.cpp's integer-semantics check alone (the // and % by constants 2^k of this
// branch), sizes as check_ops runs it.
#define main check_ops_main
#include "check_ops.cpp"
#undef main
int main() {
  use_device_0();
  for (size_t n : {size_t(1), size_t(1000), size_t(4099), (size_t(1) << 20) + 3}) check_intops(n);
  return failures ? 1 : 0;
}
