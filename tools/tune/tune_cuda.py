"""The CUDA driver API calls tilec-tune makes, through ctypes (tilec itself never links the
driver), and the sleep kernel of the benchmark protocol."""

import ctypes
from ctypes import byref, c_char_p, c_float, c_int, c_size_t, c_uint64, c_void_p

from tune_header import ToolError

CUDA_SUCCESS = 0
CUDA_ERROR_INVALID_VALUE = 1
# cuDeviceGetAttribute (cuda.h CUdevice_attribute)
ATTR_MULTIPROCESSOR_COUNT = 16
ATTR_CC_MAJOR = 75
ATTR_CC_MINOR = 76

# A kernel that spins until `ns` nanoseconds of %globaltimer have passed (PTX ISA 9.7.13,
# special register %globaltimer; nanosleep since PTX 6.3 / sm_70). Launched ahead of each timed
# call so that the host's launch overhead is hidden behind it (bench-protocol.md item 4).
SLEEP_PTX = b"""\
.version 7.0
.target sm_70
.address_size 64

.visible .entry tilec_tune_sleep(.param .u64 ns)
{
  .reg .pred %p<2>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [ns];
  mov.u64 %rd2, %globaltimer;
$L_spin:
  nanosleep.u32 1000;
  mov.u64 %rd3, %globaltimer;
  sub.u64 %rd4, %rd3, %rd2;
  setp.lt.u64 %p1, %rd4, %rd1;
  @%p1 bra $L_spin;
  ret;
}
"""


class Driver:
    """The driver library and one device's primary context, current on this thread."""

    def __init__(self, lib, ordinal=0):
        self.lib = lib
        self.check(lib.cuInit(0), "cuInit")
        self.device = c_int()
        self.check(lib.cuDeviceGet(byref(self.device), ordinal), "cuDeviceGet")
        self.context = c_void_p()
        self.check(lib.cuDevicePrimaryCtxRetain(byref(self.context), self.device), "cuDevicePrimaryCtxRetain")
        self.check(lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        self.stream = c_void_p()
        self.check(lib.cuStreamCreate(byref(self.stream), 0), "cuStreamCreate")
        self.sleep_function = None

    def error_name(self, r):
        name = c_char_p()
        if self.lib.cuGetErrorName(r, byref(name)) != CUDA_SUCCESS or not name.value:
            return f"CUresult {r}"
        return name.value.decode()

    def check(self, r, what):
        if r != CUDA_SUCCESS:
            raise ToolError(f"{what} failed: {self.error_name(r)}")

    # ---- the device ----
    def attribute(self, attr):
        v = c_int()
        self.check(self.lib.cuDeviceGetAttribute(byref(v), attr, self.device), "cuDeviceGetAttribute")
        return v.value

    def name(self):
        buf = ctypes.create_string_buffer(256)
        self.check(self.lib.cuDeviceGetName(buf, 256, self.device), "cuDeviceGetName")
        return buf.value.decode()

    def cc(self):
        return self.attribute(ATTR_CC_MAJOR) * 10 + self.attribute(ATTR_CC_MINOR)

    def sms(self):
        return self.attribute(ATTR_MULTIPROCESSOR_COUNT)

    def driver_version(self):
        v = c_int()
        self.check(self.lib.cuDriverGetVersion(byref(v)), "cuDriverGetVersion")
        return v.value

    # ---- memory ----
    def alloc(self, nbytes):
        p = c_uint64()
        self.check(self.lib.cuMemAlloc_v2(byref(p), c_size_t(max(nbytes, 1))), f"cuMemAlloc of {nbytes} bytes")
        return p.value

    def free(self, p):
        self.check(self.lib.cuMemFree_v2(c_uint64(p)), "cuMemFree")

    def upload(self, p, data):
        self.check(self.lib.cuMemcpyHtoD_v2(c_uint64(p), data, c_size_t(len(data))), "cuMemcpyHtoD")

    def download(self, p, nbytes):
        buf = ctypes.create_string_buffer(nbytes)
        self.check(self.lib.cuMemcpyDtoH_v2(buf, c_uint64(p), c_size_t(nbytes)), "cuMemcpyDtoH")
        return buf.raw

    def fill(self, p, byte, nbytes, asynchronous=False):
        if asynchronous:
            r = self.lib.cuMemsetD8Async(c_uint64(p), ctypes.c_ubyte(byte), c_size_t(nbytes), self.stream)
        else:
            r = self.lib.cuMemsetD8_v2(c_uint64(p), ctypes.c_ubyte(byte), c_size_t(nbytes))
        self.check(r, "cuMemsetD8")

    # ---- stream, events, the sleep kernel ----
    def synchronize(self):
        self.check(self.lib.cuStreamSynchronize(self.stream), "cuStreamSynchronize")

    def event(self):
        e = c_void_p()
        self.check(self.lib.cuEventCreate(byref(e), 0), "cuEventCreate")
        return e

    def record(self, e):
        self.check(self.lib.cuEventRecord(e, self.stream), "cuEventRecord")

    def elapsed_ms(self, start, end):
        # CUDA 12.8 added cuEventElapsedTime_v2 (what cuda.h of 13.0 calls cuEventElapsedTime);
        # older drivers have only the first version.
        fn = getattr(self.lib, "cuEventElapsedTime_v2", None) or self.lib.cuEventElapsedTime
        ms = c_float()
        self.check(fn(byref(ms), start, end), "cuEventElapsedTime")
        return ms.value

    def destroy_event(self, e):
        self.check(self.lib.cuEventDestroy_v2(e), "cuEventDestroy")

    def sleep(self, ns):
        """Enqueues the sleep kernel for `ns` nanoseconds on the stream."""
        if self.sleep_function is None:
            module, function = c_void_p(), c_void_p()
            self.check(self.lib.cuModuleLoadData(byref(module), c_char_p(SLEEP_PTX)), "cuModuleLoadData (sleep kernel)")
            self.check(self.lib.cuModuleGetFunction(byref(function), module, b"tilec_tune_sleep"), "cuModuleGetFunction")
            self.sleep_function = function
        arg = c_uint64(ns)
        params = (c_void_p * 1)(ctypes.cast(byref(arg), c_void_p))
        self.check(self.lib.cuLaunchKernel(self.sleep_function, 1, 1, 1, 1, 1, 1, 0, self.stream, params, None),
                   "cuLaunchKernel (sleep kernel)")
