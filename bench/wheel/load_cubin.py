#!/usr/bin/env python3
"""Loads a cubin under the CUDA driver (cuInit, the primary context of device 0,
cuModuleLoadData) and lists its kernels: proof that the ptxas that made it suits the installed
driver. Exits 1 with the driver's error name when a call fails.

    python3 load_cubin.py FILE.cubin
"""
import ctypes
import sys

cuda = ctypes.CDLL("libcuda.so.1")


def check(what, result):
    if result != 0:
        name = ctypes.c_char_p()
        cuda.cuGetErrorName(result, ctypes.byref(name))
        sys.exit(f"{what} failed: {name.value.decode() if name.value else result}")


image = open(sys.argv[1], "rb").read()
device, context, module = ctypes.c_int(), ctypes.c_void_p(), ctypes.c_void_p()
check("cuInit", cuda.cuInit(0))
check("cuDeviceGet", cuda.cuDeviceGet(ctypes.byref(device), 0))
check("cuDevicePrimaryCtxRetain", cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), device))
check("cuCtxSetCurrent", cuda.cuCtxSetCurrent(context))
check("cuModuleLoadData", cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(image)))
count = ctypes.c_uint()
check("cuModuleGetFunctionCount", cuda.cuModuleGetFunctionCount(ctypes.byref(count), module))
version = ctypes.c_int()
check("cuDriverGetVersion", cuda.cuDriverGetVersion(ctypes.byref(version)))
print(f"{sys.argv[1]}: {len(image)} bytes loaded under driver API {version.value}: {count.value} kernels")
