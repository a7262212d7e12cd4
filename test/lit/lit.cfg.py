import os
import shutil
import sys
import lit.formats

config.name = "mycc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mycc_obj_root, "out")

# Before %mycc, which is a prefix of them: mycc's runtime library directory,
# and mycc-objdump.
config.substitutions.append(("%mycc_lib", os.path.join(os.path.dirname(config.mycc_bin_dir), "lib64")))
config.substitutions.append(("%mycc-objdump", os.path.join(config.mycc_bin_dir, "mycc-objdump")))
config.substitutions.append(("%mycc", os.path.join(config.mycc_bin_dir, "mycc")))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%python", sys.executable))
# FileCheck and not come from LLVM's tools.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ["HOME", "TMPDIR"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
# Tests must not depend on the caller's toolkit choice.
config.environment.pop("CUDA_PATH", None)

# NVIDIA's cuobjdump, as CMake found it (the toolkit's, one on PATH, or the one
# scripts/install-deps.sh fetched into build/tools).
def find_cuobjdump():
    c = config.cuobjdump
    return c if c and os.access(c, os.X_OK) else None

cuobjdump = find_cuobjdump()
if cuobjdump:
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))

if shutil.which("nvcc") or os.path.exists(os.path.join(config.cuda_path, "bin", "nvcc")):
    config.available_features.add("nvcc")

# Ninja (scripts/install-deps.sh installs it): the rebuild test drives it.
ninja = shutil.which("ninja")
if ninja:
    config.available_features.add("ninja")
    config.substitutions.append(("%ninja", ninja))

# Inputs that cannot be read and directories that cannot be written: root
# reads and writes anything, so as root the command runs as nobody
# (setpriv); anyone else is refused by the test's own chmod.
import subprocess
if os.geteuid() != 0:
    config.available_features.add("unprivileged")
    config.substitutions.append(("%unprivileged", ""))
else:
    setpriv = shutil.which("setpriv")
    drop = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"] if setpriv else None
    # nobody must reach mycc and the tests' directories (not so under a
    # home directory of mode 700, say).
    os.makedirs(config.test_exec_root, exist_ok=True)
    reach = "test -x '%s' && cd '%s'" % (os.path.join(config.mycc_bin_dir, "mycc"),
                                         config.test_exec_root)
    if drop and subprocess.run(drop + ["sh", "-c", reach], capture_output=True).returncode == 0:
        config.available_features.add("unprivileged")
        config.substitutions.append(("%unprivileged", " ".join(drop)))

# A full disk: a small tmpfs, mounted in a mount namespace of its own
# (unshare -m) so that it goes away with the test's shell, whatever happens.
# Needs root (or the capability); the test is reported unsupported elsewhere.
unshare = shutil.which("unshare")
if unshare and subprocess.run(
        [unshare, "-m", "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs $d"],
        capture_output=True).returncode == 0:
    config.available_features.add("tmpfs")
    config.substitutions.append(("%in_mount_namespace", unshare + " -m"))

if os.geteuid() == 0:
    config.available_features.add("root")
