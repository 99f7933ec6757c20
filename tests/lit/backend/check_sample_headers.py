"""The headers tilec generates for the compilable samples compile warning-free with gcc and
clang, as C99 and as C++17 (-Wall -Wextra -Wpedantic -Werror), in a program that uses nothing
and in a program of two translation units that both include every header and call it, linked
against the CUDA driver stub.

    check_sample_headers.py TILEC CUDA_ROOT SAMPLES_DIR OUT_DIR
"""
import os
import subprocess
import sys

tilec, cuda, samples, out = sys.argv[1:5]
os.makedirs(out, exist_ok=True)
SAMPLES = ["vector_add", "gelu_bias"]
headers = []
for s in SAMPLES:
    h = os.path.join(out, s + ".h")
    subprocess.run([tilec, os.path.join(samples, s + ".tile"), "-o", h], check=True)
    headers.append(s)

includes = "".join(f'#include "{s}.h"\n' for s in headers)
with open(os.path.join(out, "nothing.c"), "w") as f:
    f.write(includes + "int main(void) { return 0; }\n")
calls = "\n".join(f"  r |= (int){s}_load();" for s in headers)
with open(os.path.join(out, "tu1.c"), "w") as f:
    f.write(includes + "int use_tu2(void);\nint main(void) {\n  int r = 0;\n" + calls +
            "\n  return r | use_tu2();\n}\n")
with open(os.path.join(out, "tu2.c"), "w") as f:
    f.write(includes + "int use_tu2(void) {\n  uint32_t g[3];\n  return (int)vector_add_grid(1000, g) + "
            "(int)gelu_bias(0, 0, 0, 0, 0, 0);\n}\n")

flags = ["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-I", out, "-I", os.path.join(cuda, "include")]
libs = ["-L" + os.path.join(cuda, "lib64", "stubs"), "-lcuda"]
failures = 0
for cc, lang, std in [("gcc", "c", "c99"), ("g++", "c++", "c++17"), ("clang", "c", "c99"), ("clang++", "c++", "c++17")]:
    for prog, srcs in [("nothing", ["nothing.c"]), ("two_tu", ["tu1.c", "tu2.c"])]:
        exe = os.path.join(out, f"{prog}.{cc}.{std}")
        cmd = [cc, f"-std={std}", "-x", lang] + flags + [os.path.join(out, s) for s in srcs] + ["-x", "none"] + libs + ["-o", exe]
        r = subprocess.run(cmd, capture_output=True, text=True)
        ok = r.returncode == 0 and not r.stderr.strip()
        print(f"{cc:8} {std:6} {prog:8} {'ok' if ok else 'FAIL'}")
        if not ok:
            print(r.stderr[:2000])
            failures += 1
sys.exit(1 if failures else 0)
