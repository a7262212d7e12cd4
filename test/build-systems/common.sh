# Sourced by the build-system test scripts: how they report.
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "-- $*"; }
# A missing tool skips the test (77), except under scripts/test.sh
# (MYCC_REQUIRE_BUILD_SYSTEMS) or in CI, where it fails.
missing() {
  if [ -n "${MYCC_REQUIRE_BUILD_SYSTEMS:-}${CI:-}" ]; then
    fail "$1 (CI must have it: scripts/install-deps.sh installs it)"
  fi
  echo "SKIP: $1"
  exit 77
}
