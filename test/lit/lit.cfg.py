import os
import shutil
import lit.formats

config.name = "mycc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mycc_obj_root, "out")

config.substitutions.append(("%mycc", os.path.join(config.mycc_bin_dir, "mycc")))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# FileCheck and not come from LLVM's tools.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ["HOME", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Tests must not depend on the caller's toolkit choice.
config.environment.pop("CUDA_PATH", None)

# NVIDIA's cuobjdump: the toolkit's, one on PATH, or the one scripts/install-deps.sh
# fetched into build/tools.
def find_cuobjdump():
    candidates = [os.path.join(config.cuda_path, "bin", "cuobjdump"), shutil.which("cuobjdump")]
    tools = os.path.join(os.path.dirname(config.mycc_bin_dir), "tools")
    for root, _, files in os.walk(tools):
        if "cuobjdump" in files:
            candidates.append(os.path.join(root, "cuobjdump"))
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    return None

cuobjdump = find_cuobjdump()
if cuobjdump:
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))

if shutil.which("nvcc") or os.path.exists(os.path.join(config.cuda_path, "bin", "nvcc")):
    config.available_features.add("nvcc")
