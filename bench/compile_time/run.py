#!/usr/bin/env python3
"""Compile-time benchmark: mycc vs nvcc vs clang++ (-x cuda), side by side.

Compiles a fixed set of the repository's own CUDA programs to objects (-c)
with each compiler for the same three targets (sm_80, sm_86 and sm_90 cubins
plus compute_90 PTX), interleaving the compilers so that machine noise hits
them alike, and reports the median wall time per program and the ratios to
nvcc.

    bench/compile_time/run.py [--mycc build/bin/mycc] [--repeat 3] [--jobs N]

Writes a Markdown table to stdout (and --output FILE if given).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = [
    "examples/vector_add.cu",
    "test/gpu/templates.cu",
    "test/gpu/namespaces.cu",
    "test/gpu/symbols.cu",
    "test/gpu/func_api.cu",
    "test/gpu/lambdas.cu",
    "test/gpu/kernel_args.cu",
    "test/gpu/atomics_warp.cu",
]
NVCC_TARGETS = ["-gencode", "arch=compute_80,code=sm_80",
                "-gencode", "arch=compute_86,code=sm_86",
                "-gencode", "arch=compute_90,code=[sm_90,compute_90]"]


def cuda_path():
    if os.environ.get("CUDA_PATH"):
        return os.environ["CUDA_PATH"]
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    return "/usr/local/cuda"


def commands(args, source, out):
    cuda = cuda_path()
    flags = ["-std=c++17"]
    cmds = {
        "mycc": [args.mycc, "-c", source, "-o", out] + NVCC_TARGETS + flags,
        "nvcc": [os.path.join(cuda, "bin", "nvcc"), "-c", source, "-o", out,
                 "--extended-lambda"] + NVCC_TARGETS + flags,
        # clang embeds a cubin and the PTX for each --cuda-gpu-arch.
        "clang": [args.clang, "-x", "cuda", "-c", source, "-o", out,
                  "--cuda-path=" + cuda, "-isystem", os.path.join(cuda, "include", "cccl"),
                  "-Wno-unknown-cuda-version", "-O3",
                  "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_86",
                  "--cuda-gpu-arch=sm_90"] + flags,
    }
    return cmds


def timed(cmd):
    start = time.perf_counter()
    result = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit("benchmark command failed: %s\n%s" % (" ".join(cmd), result.stderr.decode()))
    return elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mycc", default=os.path.join(ROOT, "build", "bin", "mycc"))
    parser.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--output")
    args = parser.parse_args()

    compilers = ["mycc", "nvcc", "clang"]
    times = {c: {} for c in compilers}
    with tempfile.TemporaryDirectory() as tmp:
        for program in PROGRAMS:
            source = os.path.join(ROOT, program)
            for c in compilers:
                times[c][program] = []
            for _ in range(args.repeat):
                for c in compilers:
                    out = os.path.join(tmp, c + ".o")
                    times[c][program].append(timed(commands(args, source, out)[c]))

    lines = ["| program | mycc (s) | nvcc (s) | clang++ (s) | mycc/nvcc | clang/nvcc |",
             "|---|---:|---:|---:|---:|---:|"]
    totals = {c: 0.0 for c in compilers}
    for program in PROGRAMS:
        med = {c: statistics.median(times[c][program]) for c in compilers}
        for c in compilers:
            totals[c] += med[c]
        lines.append("| %s | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
            program, med["mycc"], med["nvcc"], med["clang"],
            med["mycc"] / med["nvcc"], med["clang"] / med["nvcc"]))
    lines.append("| **total** | **%.2f** | **%.2f** | **%.2f** | **%.2f** | **%.2f** |" % (
        totals["mycc"], totals["nvcc"], totals["clang"],
        totals["mycc"] / totals["nvcc"], totals["clang"] / totals["nvcc"]))
    report = "\n".join(lines)
    info = "median of %d runs per program, %d CPU cores, targets: %s" % (
        args.repeat, os.cpu_count(), " ".join(NVCC_TARGETS))
    text = report + "\n\n" + info + "\n"
    print(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
