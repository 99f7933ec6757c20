"""The timing protocol of issue 38's benchmarks (gemm.py, rows.py): every variant once per round,
rounds in a shuffled order (what a launch finds in the L2 depends on the launch before it), each
timed call after an L2 flush and a ~1 ms sleep kernel (the host's launch overhead stays out of
the timing), CUDA-event times; the first round warms up and is not counted."""
import random
import statistics


def timed_rounds(torch, variants, flush, reps, rec):
    """Times each of `variants` (name -> callable) in `reps` counted rounds after `flush` (a
    tensor zeroed before each call) and writes rec["ms"][name] (the median, ms) and
    rec["spread"][name] (min, max)."""
    times = {name: [] for name in variants}
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for rep in range(reps + 1):
        order = list(variants)
        random.shuffle(order)
        for name in order:
            flush.zero_()
            torch.cuda._sleep(2_000_000)
            e0.record()
            variants[name]()
            e1.record()
            e1.synchronize()
            if rep:
                times[name].append(e0.elapsed_time(e1))
    for name, t in times.items():
        rec["ms"][name] = statistics.median(t)
        rec.setdefault("spread", {})[name] = (min(t), max(t))
