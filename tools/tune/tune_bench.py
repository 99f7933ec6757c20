"""One shape of tilec-tune: the arrays, the check that every configuration computes what
configuration 0 does, and the timing of the configurations that do, by the benchmark protocol
(shared/reference/bench-protocol.md): a sleep kernel ahead of each timed call, CUDA events
around it, L2 flushed before it when the arrays fit in L2, configurations interleaved in
shuffled rounds, medians."""

import ctypes
import random
import statistics

import tune_data
from tune_cuda import CUDA_ERROR_INVALID_VALUE, CUDA_SUCCESS
from tune_header import ToolError
from tune_shapes import scalar_value

# Arrays under this many bytes in all may stay in L2 between calls (50 MB on H100, 60 MB on
# H200): each timed call then comes after a write of FLUSH_BYTES (bench-protocol.md item 3).
L2_BYTES = 60 << 20
FLUSH_BYTES = 256 << 20

_SCALAR_TYPES = {"bool": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16, "i32": ctypes.c_int32,
                 "i64": ctypes.c_int64, "u8": ctypes.c_uint8, "u16": ctypes.c_uint16, "u32": ctypes.c_uint32,
                 "u64": ctypes.c_uint64, "f16": ctypes.c_float, "bf16": ctypes.c_float, "f32": ctypes.c_float,
                 "f64": ctypes.c_double}


class Result:
    """What happened to one configuration at one shape: `status` is "ok" (then `times_ms`),
    "not eligible", "disagrees" or "failed" (then `reason`)."""

    def __init__(self, index, label):
        self.index, self.label = index, label
        self.status, self.reason, self.times_ms = "ok", "", []

    def median_ms(self):
        return statistics.median(self.times_ms)

    def spread(self):
        """The interquartile range over the median (bench-protocol.md item 5)."""
        if len(self.times_ms) < 4:
            return 0.0
        q = statistics.quantiles(self.times_ms, n=4)
        return (q[2] - q[0]) / self.median_ms()


class Shape:
    """The device arrays of one shape and the launch of one configuration on them."""

    def __init__(self, drv, kernel, shape, scalar_values, seed):
        self.drv, self.kernel = drv, kernel
        self.values = dict(zip(kernel.symbols, shape.extents(kernel.symbols)))
        self.launch_config = getattr(kernel.lib, kernel.sym + "_launch_config")
        self.arrays = []  # (param, pointer, bytes)
        self.workspace = None
        try:
            for n, p in enumerate(kernel.arrays):
                nbytes = p.nbytes(self.values)
                ptr = drv.alloc(nbytes)
                self.arrays.append((p, ptr, nbytes))
                count = nbytes // p.elem_bytes
                drv.upload(ptr, tune_data.random_bytes(p.dtype, p.elem_bytes, count, seed * 1000 + n))
        except ToolError:
            self.free()
            raise
        scalars = [_SCALAR_TYPES[p.dtype](scalar_values[p.name]) for p in kernel.params if not p.is_array]
        self.args = ([ctypes.c_uint64(ptr) for _, ptr, _ in self.arrays] +
                     [ctypes.c_int64(self.values[s]) for s in kernel.symbols] + scalars)
        # Split-K configurations take a workspace last (docs/header.md "Workspace"): as large as
        # the header says these extents need, allocated once per shape.
        workspace_bytes = getattr(kernel.lib, kernel.sym + "_workspace_bytes", None)
        if workspace_bytes is not None:
            workspace_bytes.restype = ctypes.c_size_t
            nbytes = workspace_bytes(*([ctypes.c_int64(self.values[s]) for s in kernel.symbols] + scalars))
            self.workspace = drv.alloc(max(nbytes, 1))
            self.args += [ctypes.c_uint64(self.workspace), ctypes.c_size_t(nbytes)]

    def launch(self, config):
        return self.launch_config(ctypes.c_int(config), self.drv.stream, *self.args)

    def outputs(self):
        return [(p, ptr, nbytes) for p, ptr, nbytes in self.arrays if p.may_write]

    def free(self):
        for _, ptr, _ in self.arrays:
            self.drv.free(ptr)
        self.arrays = []
        if self.workspace is not None:
            self.drv.free(self.workspace)
            self.workspace = None


def check(shape, results):
    """Launches each configuration once on outputs poisoned with 0xFF bytes (NaN in every float
    dtype) and compares its outputs with the first eligible configuration's (configuration 0
    unless it is not eligible). Sets each result's status."""
    reference = None
    for r in results:
        for _, ptr, nbytes in shape.outputs():
            shape.drv.fill(ptr, 0xFF, nbytes)
        code = shape.launch(r.index)
        if code == CUDA_ERROR_INVALID_VALUE:
            r.status, r.reason = "not eligible", "its launch returns CUDA_ERROR_INVALID_VALUE for these extents"
            continue
        if code != CUDA_SUCCESS:
            r.status, r.reason = "failed", f"its launch returns {shape.drv.error_name(code)}"
            continue
        try:
            shape.drv.synchronize()
        except ToolError as e:  # the context is lost: nothing more can run in this process
            raise ToolError(f"configuration {r.index} ({r.label}) failed on the device: {e}") from e
        got = [shape.drv.download(ptr, nbytes) for _, ptr, nbytes in shape.outputs()]
        if reference is None:
            reference = (r.index, got)
            continue
        for (p, _, _), ref, out in zip(shape.outputs(), reference[1], got):
            why = tune_data.compare(p.dtype, ref, out, f"configuration {reference[0]}")
            if why:
                r.status, r.reason = "disagrees", f"{p.name}: {why}"
                break


def time_configs(shape, results, reps, sleep_ns, flush, seed):
    """Times the configurations whose status is "ok": `reps` rounds, each launching every one
    of them once in a shuffled order, each launch after an L2 flush (when `flush`, a pointer
    to FLUSH_BYTES) and the sleep kernel, between two events. Fills `times_ms`."""
    drv = shape.drv
    timed = [r for r in results if r.status == "ok"]
    events = {r.index: (drv.event(), drv.event()) for r in timed}
    order = random.Random(seed)
    try:
        for round_ in range(reps + 1):  # round 0 warms up (clocks, caches of the driver); not kept
            order.shuffle(timed)
            for r in timed:
                if flush:
                    drv.fill(flush, round_ & 0xFF, FLUSH_BYTES, asynchronous=True)
                drv.sleep(sleep_ns)
                start, end = events[r.index]
                drv.record(start)
                code = shape.launch(r.index)
                drv.record(end)
                if code != CUDA_SUCCESS:
                    raise ToolError(f"configuration {r.index} ({r.label}) launched once but then returned "
                                    f"{drv.error_name(code)}")
            drv.synchronize()
            if round_ > 0:
                for r in timed:
                    r.times_ms.append(drv.elapsed_ms(*events[r.index]))
    finally:
        for pair in events.values():
            for e in pair:
                drv.destroy_event(e)


def measure(drv, kernel, shape, reps, sleep_ns, flush, seed):
    """The results of every configuration of `kernel` at `shape` (a tune_shapes.Shape)."""
    scalar_values = {n: scalar_value(shape.values[n], t) for n, t in kernel.scalars.items()}
    results = [Result(i, label) for i, label in kernel.configs]
    arrays = Shape(drv, kernel, shape, scalar_values, seed)
    try:
        check(arrays, results)
        working_set = sum(nbytes for _, _, nbytes in arrays.arrays)
        time_configs(arrays, results, reps, sleep_ns, flush if working_set < L2_BYTES else None, seed)
    finally:
        arrays.free()
    return results
