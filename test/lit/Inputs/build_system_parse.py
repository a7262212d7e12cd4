"""Reads mycc's output the way build systems read nvcc's (docs/build-systems.md).

  build_system_parse.py version <file>   the --version banner: CMake's vendor
      regexes (3.25-4.0 and 4.1+), CMake's toolkit version (the first
      V<d>.<d>.<d>) and Meson's (the word after the last capital V)
  build_system_parse.py toolkit <file>   the `-v __cmake_determine_cuda` probe:
      CMake's TOP / NVVMIR_LIBRARY_DIR regexes (Modules/Internal/
      CMakeCUDAFindToolkit.cmake)
  build_system_parse.py link <file>      a -v compile and link: CMake's
      implicit link line, launcher, libraries and default architectures
      (Modules/Internal/CMakeNVCCParseImplicitInfo.cmake)

Prints one `key: value` line per result; exits 1 with a message where CMake
would stop with a fatal error.
"""
import os
import re
import shlex
import sys


def version(text):
    old = re.search(r"nvcc: NVIDIA \(R\) Cuda compiler driver", text)
    new = re.search(r"nvcc: [^\n]+ Cuda compiler driver", text)
    print("cmake-3.25-vendor:", "NVIDIA" if old else "none")
    print("cmake-4.1-vendor:", "NVIDIA" if new else "none")
    m = re.search(r"V([0-9]+\.[0-9]+\.[0-9]+)", text)
    print("cmake-toolkit-version:", m.group(1) if m else "none")
    # CMakeDetermineCompilerId.cmake's fallback, with its leading space.
    m = re.search(r" V([0-9]+)\.([0-9]+)\.([0-9]+)", text)
    print("cmake-compiler-version:", ".".join(m.groups()) if m else "none")
    print("meson-version:", text.strip().rsplit("V", 1)[-1].split(maxsplit=1)[0])
    after = text.strip().split("\n")[-1]
    print("last-line:", after)


def toolkit(text):
    top = re.search(r"#\$ TOP=([^\r\n]*)", text)
    if not top:
        sys.exit("no #$ TOP=")
    nvvm = re.search(r"#\$ NVVMIR_LIBRARY_DIR=([^\r\n]*)", text)
    if not nvvm:
        sys.exit("no #$ NVVMIR_LIBRARY_DIR=")
    root = os.path.realpath(top.group(1))
    libdevice = nvvm.group(1)
    if not libdevice.endswith("nvvm/libdevice") or not os.path.isdir(libdevice):
        sys.exit("Couldn't find CUDA library root: " + libdevice)
    print("toolkit-root:", top.group(1))
    print("library-root:", os.path.normpath(os.path.join(libdevice, "../..")))
    print("nvcc-exists:", os.path.exists(os.path.join(root, "bin", "nvcc")))
    for var in ("PATH", "INCLUDES", "SYSTEM_INCLUDES", "LIBRARIES"):
        count = len(re.findall(r"#\$ +%s= *[^\n]*\n" % var, text))
        print("%s-count: %d" % (var, count))


def link(text):
    text = text.replace("\r", "")
    libs = re.search(r"#\$ +LIBRARIES= *([^\n]*)\n", text)
    if not libs or not libs.group(1):
        sys.exit("Failed to extract nvcc implicit link line (no LIBRARIES)")
    libraries = libs.group(1)
    # One entry per device compile; their order is the order the parallel
    # device steps started in.
    archs = sorted(re.findall(r"-arch compute_([0-9]+)", text))
    print("default-architectures:", ";".join(archs) if archs else "none")
    body = re.sub(r"#\$ *[^= ]+=[^\n]*\n", "", text)
    line = None
    for candidate in re.split(r"\n+(?:#\$ )?", body):
        if re.match(r"^ *nvlink", candidate):
            continue
        if libraries in candidate:
            line = candidate
    if line is None:
        sys.exit("Failed to extract nvcc implicit link line.")
    line = re.sub(r"^#\$ ", "", line)
    words = shlex.split(line)
    print("link-launcher:", words[0])
    print("launcher-absolute:", os.path.isabs(words[0]) and os.access(words[0], os.X_OK))
    implicit = [w[2:] for w in words if w.startswith("-l")]
    implicit += [w for w in words if os.path.isabs(w) and w.endswith(".a")]
    print("implicit-libraries:", ";".join(implicit))
    print("implicit-directories:", ";".join(w[2:] for w in words if w.startswith("-L")))
    runtime = ("STATIC" if "cudart_static" in implicit
               else "SHARED" if "cudart" in implicit else "NONE")
    print("runtime-default:", runtime)
    filtered = [l for l in implicit if l not in
                ("cudart", "cudart_static", "cudadevrt", "rt", "pthread", "dl")]
    print("host-implicit-libraries:", ";".join(filtered))


if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8", errors="replace") as f:
        {"version": version, "toolkit": toolkit, "link": link}[mode](f.read())
