"""Lead, session 15: a copy of a tilec header whose launches carry the PDL attribute
(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, cuda.h), for the probe only.
    pdl_header.py HEADER OUT_HEADER"""
import sys

src, dst = sys.argv[1:3]
text = open(src).read()
old = """  if (cluster[0] == 1 && cluster[1] == 1 && cluster[2] == 1)
    return cuLaunchKernel((CUfunction)kernel, grid[0], grid[1], grid[2], (unsigned)threads, 1, 1,
                          (unsigned)shared_bytes, stream, args, NULL);"""
new = """  if (cluster[0] == 1 && cluster[1] == 1 && cluster[2] == 1) {
    tilec_cluster_config(&config, &attr, grid, threads, shared_bytes, cluster, stream);
    attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    memset(&attr.value, 0, sizeof attr.value);
    attr.value.programmaticStreamSerializationAllowed = 1;
    return cuLaunchKernelEx(&config, (CUfunction)kernel, args, NULL);
  }"""
assert old in text
open(dst, "w").write(text.replace(old, new))
