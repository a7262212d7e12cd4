#!/usr/bin/env python3
"""Compile time on real project files: mycc, nvcc, nvcc --threads 0 and
clang++ (-x cuda) side by side.

Each file is compiled to an object with the flags its project's own build
passes (ggml's CMake, CCCL's, CUTLASS's), for one target (sm_90 and its
PTX) and for three (sm_80, sm_86, sm_90 and sm_90's PTX). The compilers take
turns within each round, so machine noise hits them alike. Per compile:
wall time, CPU time (user + system of the whole process tree) and peak
memory (the largest resident set of one process in the tree). Prints the
medians over the rounds and mycc's ratios: wall to `nvcc --threads 0`, CPU
to nvcc and to clang++.

    bench/compile_time/real.py --source ggml=DIR --source cccl=DIR \\
        --source cutlass=DIR [--mycc build/bin/mycc] [--repeat 3] [--only NAME] \\
        [--targets one|three|both] [--compilers mycc,nvcc,nvcc -t0,clang]

"mycc -split-compile 1" among the compilers measures mycc without its
split of a large module's code generation over idle job slots.

The checkouts are those of test/realworld/manifest.json (ggml-cuda, the
CCCL Thrust examples, the CUTLASS examples).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import ROOT, cuda_path  # the same toolkit as bench/compile_time/run.py

# name: (project, file in it, its project's flags, include dirs in it, nvcc-only flags)
GGML_FLAGS = ["-DGGML_BACKEND_BUILD", "-DGGML_BACKEND_SHARED", "-DGGML_CUDA_PEER_MAX_BATCH_SIZE=128",
              "-DGGML_SCHED_MAX_COPIES=4", "-DGGML_SHARED", "-D_GNU_SOURCE", "-D_XOPEN_SOURCE=600",
              "-O3", "-DNDEBUG", "-std=c++17"]
FILES = {
    "ggml fattn.cu": ("ggml", "src/ggml-cuda/fattn.cu", GGML_FLAGS, ["src", "include"],
                      ["-use_fast_math", "-extended-lambda", "-Xcompiler=-fPIC"]),
    "ggml mmq-instance-q4_0.cu": ("ggml", "src/ggml-cuda/template-instances/mmq-instance-q4_0.cu",
                                  GGML_FLAGS, ["src", "include"],
                                  ["-use_fast_math", "-extended-lambda", "-Xcompiler=-fPIC"]),
    "Thrust sort.cu": ("cccl", "thrust/examples/sort.cu",
                       ["-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA",
                        "-DTHRUST_HOST_SYSTEM=THRUST_HOST_SYSTEM_CPP", "-std=c++17"],
                       ["thrust/examples", "thrust", "libcudacxx/include", "cub"], []),
    "CUTLASS basic_gemm.cu": ("cutlass", "examples/00_basic_gemm/basic_gemm.cu",
                              ["-O3", "-DNDEBUG", "-std=c++17"],
                              ["include", "tools/util/include", "examples/common"], []),
}
TARGETS = {
    "one": ["sm_90"],
    "three": ["sm_80", "sm_86", "sm_90"],
}


def gencode(archs):
    out = []
    for sm in archs:
        code = "[compute_%s,%s]" % (sm[3:], sm) if sm == archs[-1] else sm
        out += ["-gencode", "arch=compute_%s,code=%s" % (sm[3:], code)]
    return out


def commands(args, name, archs, out):
    project, path, flags, includes, nvcc_only = FILES[name]
    top = args.sources[project]
    source = os.path.join(top, path)
    incs = ["-I" + os.path.join(top, d) for d in includes]
    cuda = cuda_path()
    nvcc = [os.path.join(cuda, "bin", "nvcc")]
    nvcc_style = ["-c", source, "-o", out] + flags + incs + nvcc_only + gencode(archs)
    clang_flags = [f for f in flags]
    if "-use_fast_math" in nvcc_only:  # what -use_fast_math means on the device side
        clang_flags += ["-fgpu-flush-denormals-to-zero", "-fgpu-approx-transcendentals",
                        "-ffp-contract=fast", "-fno-honor-nans", "-fno-honor-infinities"]
    return {
        "mycc": [args.mycc] + nvcc_style,
        # mycc doing one thing at a time inside a device compile (no split
        # of code generation over idle job slots).
        "mycc -split-compile 1": [args.mycc, "-split-compile", "1"] + nvcc_style,
        "nvcc": nvcc + nvcc_style,
        "nvcc -t0": nvcc + ["--threads", "0"] + nvcc_style,
        # clang embeds a cubin and the PTX for each --cuda-gpu-arch.
        "clang": [args.clang, "-x", "cuda", "-c", source, "-o", out, "--cuda-path=" + cuda,
                  "-isystem", os.path.join(cuda, "include", "cccl"), "-Wno-unknown-cuda-version",
                  "-O3"] + clang_flags + incs + ["--cuda-gpu-arch=" + sm for sm in archs],
    }


def measure(cmd, cwd=None):
    """(wall s, CPU s, peak RSS MB) of one compile."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    # wait4: the child's rusage, which covers the descendants it waited for.
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit("benchmark command failed: %s\n%s" % (" ".join(cmd), stderr.decode()[-4000:]))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def file_arguments(parser):
    """The options that choose the compilers, files and targets (real.py's
    and phases.py's)."""
    parser.add_argument("--mycc", default=os.path.join(ROOT, "build", "bin", "mycc"))
    parser.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    parser.add_argument("--source", action="append", default=[], metavar="PROJECT=DIR")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", action="append", default=[], help="a file's name (repeatable)")
    parser.add_argument("--targets", choices=["one", "three", "both"], default="both")


def chosen_files(args):
    """(file names, target sets) the options ask for; sets args.sources."""
    args.sources = dict(s.split("=", 1) for s in args.source)
    names = args.only or list(FILES)
    for name in names:
        if name not in FILES:
            sys.exit("unknown file %r; known: %s" % (name, ", ".join(FILES)))
        if FILES[name][0] not in args.sources:
            sys.exit("%s needs --source %s=DIR" % (name, FILES[name][0]))
    return names, ["one", "three"] if args.targets == "both" else [args.targets]


def main():
    parser = argparse.ArgumentParser()
    file_arguments(parser)
    parser.add_argument("--compilers", default="mycc,nvcc,nvcc -t0,clang",
                        help="comma-separated, of: mycc, mycc -split-compile 1, nvcc, nvcc -t0, clang")
    args = parser.parse_args()
    names, sets = chosen_files(args)
    compilers = args.compilers.split(",")
    for c in compilers + ["mycc", "nvcc", "nvcc -t0"]:
        if c not in commands(args, names[0], TARGETS["one"], "x.o"):
            sys.exit("unknown compiler %r" % c)
    if not {"mycc", "nvcc", "nvcc -t0"} <= set(compilers):
        sys.exit("--compilers needs mycc, nvcc and nvcc -t0 (the ratios' terms)")
    results = {}  # (name, set, compiler) -> [(wall, cpu, rss)]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.o")
        for r in range(args.repeat):
            for name in names:
                for tset in sets:
                    cmds = commands(args, name, TARGETS[tset], out)
                    # Rotate the order round by round.
                    order = compilers[r % len(compilers):] + compilers[:r % len(compilers)]
                    for c in order:
                        m = measure(cmds[c])
                        results.setdefault((name, tset, c), []).append(m)
                        print("round %d %-28s %-5s %-9s wall %6.2f s  cpu %6.2f s  rss %6.0f MB"
                              % (r + 1, name, tset, c, *m), file=sys.stderr, flush=True)

    def med(name, tset, c, i):
        return statistics.median(x[i] for x in results[(name, tset, c)])

    clang = "clang" in compilers
    print("| file | targets | " + " | ".join("%s wall / CPU s, MB" % c for c in compilers) +
          " | mycc wall / nvcc -t0 | mycc CPU / nvcc |" + (" mycc CPU / clang |" if clang else ""))
    print("|---|---|" + "---:|" * (len(compilers) + 2 + clang))
    for name in names:
        for tset in sets:
            cells = ["%.1f / %.1f, %.0f" % tuple(med(name, tset, c, i) for i in range(3))
                     for c in compilers]
            ratios = [med(name, tset, "mycc", 0) / med(name, tset, "nvcc -t0", 0),
                      med(name, tset, "mycc", 1) / med(name, tset, "nvcc", 1)]
            if clang:
                ratios.append(med(name, tset, "mycc", 1) / med(name, tset, "clang", 1))
            print("| %s | %s | %s | %s |" % (name, tset, " | ".join(cells),
                                             " | ".join("%.2f" % x for x in ratios)))
    print("\nmedian of %d rounds, %d CPU cores; nvcc targets: -gencode per target, PTX of the last"
          % (args.repeat, len(os.sched_getaffinity(0))))


if __name__ == "__main__":
    main()
