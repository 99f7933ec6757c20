# lit configuration: RUN lines over `tilec --emit=...`, checked with FileCheck, and
# diagnostic files checked by `tilec --verify-diagnostics`.
import os

import lit.formats

config.name = "tilec"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".tile", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "lit-out")
config.substitutions.append(("%tilec-difftest", os.path.join(config.tilec_bin_dir, "tools", "difftest", "tilec-difftest")))
config.substitutions.append(("%tilec", os.path.join(config.tilec_bin_dir, "tilec")))
config.substitutions.append(("%samples", os.path.join(config.tilec_src_root, "samples")))
config.substitutions.append(("%srcroot", config.tilec_src_root))
import sys

cuda = os.environ.get("CUDA_PATH") or os.environ.get("CUDA_HOME") or "/usr/local/cuda"
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%cuda", cuda))
config.substitutions.append(("%ptxas", os.path.join(cuda, "bin", "ptxas")))
config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])

# cuobjdump for the SASS checks (the PyPI wheel nvidia-cuda-cuobjdump, fetched by .ci/run, or a
# CUDA toolkit that has it): tests that read SASS say `REQUIRES: cuobjdump`.
import shutil
cuobjdump = os.environ.get("CUOBJDUMP") or shutil.which("cuobjdump") or \
    next((p for p in [os.path.join(cuda, "bin", "cuobjdump"),
                      os.path.join(config.tilec_obj_root, "..", "sass", "nvidia", "cu13", "bin", "cuobjdump")]
          if os.path.exists(p)), None)
if cuobjdump:
    # cuobjdump runs nvdisasm from its own folder or PATH
    config.environment["PATH"] = os.pathsep.join([os.path.dirname(os.path.abspath(cuobjdump)), config.environment["PATH"]])
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))

# A C compiler, cuda.h and the driver stub (libcuda.so of the toolkit's lib64/stubs) for tests
# that compile and link generated headers: `REQUIRES: cc`; %cc, %cc_include, %cc_stubs.
cc = os.environ.get("CC") or shutil.which("gcc") or shutil.which("cc")
stubs = os.path.join(cuda, "lib64", "stubs")
if cc and os.path.exists(os.path.join(cuda, "include", "cuda.h")) and \
        os.path.exists(os.path.join(stubs, "libcuda.so")):
    config.available_features.add("cc")
    config.substitutions.append(("%cc_include", os.path.join(cuda, "include")))
    config.substitutions.append(("%cc_stubs", stubs))
    config.substitutions.append(("%cc", cc))  # after the longer names that start like it
