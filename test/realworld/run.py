#!/usr/bin/env python3
"""Builds the real projects of manifest.json with their own build files, with
mycc (the build tree's toolkit-shaped bin/nvcc) and, with --nvcc, with the
CUDA toolkit's nvcc; with --run also runs what was built (a GPU is needed).
Prints one line per project and compiler: targets built/total (and run
passed/total), and the failing targets.

  test/realworld/run.py --source cccl-thrust-examples=/path/to/cccl \\
      [--mycc-prefix build] [--nvcc] [--run] [--work /tmp/realworld]

A --source that names no project is a dependency a project's commands take
as {source_NAME} (--source catch2=DIR: {source_catch2}). Before running, a
project's "prepare" commands run (to make its test inputs); "run_arguments"
may name {build} and {here} (this directory).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def cmake_build(project, subst, tree):
    """CMake and Ninja: configure, then every target matching the pattern."""
    configure = [a.format(**subst) for a in project["configure"]]
    if subprocess.run(configure, stdout=subprocess.DEVNULL).returncode:
        return None, f"configure failed ({' '.join(configure)})"
    listing = subprocess.run(["ninja", "-C", tree, "-t", "targets", "all"],
                             capture_output=True, text=True).stdout
    pattern = re.compile(project["targets_matching"])
    targets = sorted({line.split(":")[0] for line in listing.splitlines()
                      if pattern.match(line)})
    subprocess.run(["ninja", "-C", tree, "-k", "0"] + targets,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return targets, None


def make_build(project, subst, source, tree):
    """Make, in a copy of the sources (the Makefile builds in place): the
    listed targets, relative to the copy."""
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(source, tree, ignore=shutil.ignore_patterns(".git"))
    command = [a.format(**subst) for a in project["make"]]
    targets = project["targets"]
    subprocess.run(command + ["-k"] + [os.path.basename(t) for t in targets],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return targets, None


def stub_libraries(project, work, cuda_path):
    """Empty shared libraries (with the soname the driver's library has) for
    those the project links but this toolkit lacks the stub of."""
    stubs = os.path.join(work, "nvml-stub")
    for name, soname in project.get("stub_libraries", {}).items():
        if os.path.exists(os.path.join(cuda_path, "lib64", "stubs", name)):
            continue
        os.makedirs(stubs, exist_ok=True)
        subprocess.run(["gcc", "-shared", "-x", "c", "-", "-Wl,-soname," + soname,
                        "-o", os.path.join(stubs, name)], input="", text=True,
                       check=True)


def run_target(path, arguments, timeout):
    """Runs one built program; it passes when it exits with status 0 in
    time."""
    try:
        return subprocess.run([path] + arguments, cwd=os.path.dirname(path),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=timeout).returncode == 0
    except subprocess.TimeoutExpired:
        return False


def build(project, source, compiler, work, cmake, run, toolkit, sources):
    prefix = os.path.dirname(os.path.dirname(compiler))
    tree = os.path.join(work, project["name"] + "-" + os.path.basename(prefix))
    # compiler_prefix: the toolkit-shaped prefix of the compiler (for
    # Makefiles that run $(CUDA_PATH)/bin/nvcc); toolkit: the CUDA toolkit.
    subst = {"cmake": cmake, "source": source, "build": tree, "cuda_compiler": compiler,
             "compiler_prefix": prefix, "toolkit": toolkit, "here": HERE}
    subst.update({"source_" + name.replace("-", "_").replace(".", "_"): os.path.abspath(path)
                  for name, path in sources.items()})
    if "make" in project:
        targets, error = make_build(project, subst, source, tree)
    else:
        targets, error = cmake_build(project, subst, tree)
    if error:
        return error
    built = [t for t in targets if os.path.exists(os.path.join(tree, t))]
    failed = [t for t in targets if t not in built]
    line = f"built {len(built)}/{len(targets)}"
    if run and project.get("runs", True):
        for command in project.get("prepare", []):
            subprocess.run([a.format(**subst) for a in command], check=True,
                           stdout=subprocess.DEVNULL)
        arguments = {name: [a.format(**subst) for a in args]
                     for name, args in project.get("run_arguments", {}).items()}
        timeout = project.get("run_timeout", 120)
        passed = [t for t in built if run_target(
            os.path.join(tree, t), arguments.get(os.path.basename(t), []), timeout)]
        line += f", ran {len(passed)}/{len(built)}"
    if failed:
        line += "; not built: " + " ".join(os.path.basename(t) for t in failed)
    return line


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", action="append", default=[],
                        help="NAME=DIR: where a project's sources are")
    parser.add_argument("--mycc-prefix", default=os.path.join(HERE, "..", "..", "build"))
    parser.add_argument("--cuda-path", default="/usr/local/cuda")
    parser.add_argument("--cmake", default="cmake")
    parser.add_argument("--work", default="/tmp/mycc-realworld")
    parser.add_argument("--nvcc", action="store_true", help="also build with nvcc")
    parser.add_argument("--run", action="store_true", help="run what was built")
    args = parser.parse_args()
    sources = dict(s.split("=", 1) for s in args.source)
    manifest = json.load(open(os.path.join(HERE, "manifest.json")))
    compilers = [("mycc", os.path.join(os.path.abspath(args.mycc_prefix), "bin", "nvcc"))]
    if args.nvcc:
        compilers.append(("nvcc", os.path.join(args.cuda_path, "bin", "nvcc")))
    os.makedirs(args.work, exist_ok=True)
    for project in manifest["projects"]:
        source = sources.get(project["name"])
        if not source:
            print(f"{project['name']}: no --source given, skipped")
            continue
        stub_libraries(project, args.work, args.cuda_path)
        for name, compiler in compilers:
            result = build(project, os.path.abspath(source), compiler, args.work,
                           args.cmake, args.run, args.cuda_path, sources)
            print(f"{project['name']} [{name}]: {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
