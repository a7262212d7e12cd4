#!/usr/bin/env python3
"""Compile time of the host half's two paths beside nvcc: mycc through the
host compiler (the default: g++ preprocesses and compiles, Clang lowers),
mycc --host-in-process (Clang does all of it in-process), and nvcc. A small
file and a Thrust/CUB file, each for one target and for three, compiled to
objects (-c), interleaved so that machine noise hits all three alike.

    bench/host_pipeline/run.py [--mycc build/bin/mycc] [--repeat 3]

Prints a Markdown table (median wall time per case, ratios to nvcc).
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "compile_time"))
import run as compile_time  # noqa: E402  (timed, cuda_path, NVCC_TARGETS)

ROOT = compile_time.ROOT
PROGRAMS = [
    ("examples/vector_add.cu", []),
    ("test/gpu/dialect_thrust_cub.cu", ["-I" + os.path.join(ROOT, "test", "gpu")]),
]
TARGETS = [("one", ["-arch=sm_90"]), ("three", compile_time.NVCC_TARGETS)]
COMPILERS = ["mycc", "mycc in-process", "nvcc"]


def command(args, compiler, source, extra, targets, out):
    common = ["-c", source, "-o", out, "-std=c++17", "--extended-lambda"] + extra + targets
    if compiler == "nvcc":
        return [os.path.join(compile_time.cuda_path(), "bin", "nvcc")] + common
    if compiler == "mycc in-process":
        return [args.mycc, "--host-in-process"] + common
    return [args.mycc] + common


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mycc", default=os.path.join(ROOT, "build", "bin", "mycc"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    lines = ["| file | targets | mycc (s) | mycc in-process (s) | nvcc (s) "
             "| mycc/nvcc | in-process/nvcc | mycc/in-process |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory() as tmp:
        for program, extra in PROGRAMS:
            source = os.path.join(ROOT, program)
            for label, targets in TARGETS:
                times = {c: [] for c in COMPILERS}
                for _ in range(args.repeat):
                    for c in COMPILERS:
                        out = os.path.join(tmp, "x.o")
                        times[c].append(compile_time.timed(
                            command(args, c, source, extra, targets, out)))
                m = {c: statistics.median(times[c]) for c in COMPILERS}
                lines.append("| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |" % (
                    program, label, m["mycc"], m["mycc in-process"], m["nvcc"],
                    m["mycc"] / m["nvcc"], m["mycc in-process"] / m["nvcc"],
                    m["mycc"] / m["mycc in-process"]))
    print("\n".join(lines))
    print("\nmedian of %d runs, %d CPU cores; three targets: %s" % (
        args.repeat, os.cpu_count(), " ".join(compile_time.NVCC_TARGETS)))


if __name__ == "__main__":
    main()
