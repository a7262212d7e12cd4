// The builds a benchmark harness compares: shared libraries of the same
// source, one per compiler, named on the command line as LABEL=PATH.so.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace bench {

[[noreturn]] inline void die(const std::string &message) {
  std::fprintf(stderr, "harness: %s\n", message.c_str());
  std::exit(1);
}

struct Library {
  std::string label, path;
  void *handle;
};

// Opens LABEL=PATH.so. RTLD_LOCAL: each build's own instantiations (Thrust,
// CUB) stay its own, so two builds in one process never call into each other.
inline Library openBuild(const std::string &spec) {
  auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) die("expected LABEL=PATH.so, got '" + spec + "'");
  Library lib{spec.substr(0, eq), spec.substr(eq + 1), nullptr};
  lib.handle = dlopen(lib.path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib.handle) die(dlerror());
  return lib;
}

// The library's function `name`, or the harness stops.
template <typename F> void lookup(const Library &lib, const char *name, F &fn) {
  fn = reinterpret_cast<F>(dlsym(lib.handle, name));
  if (!fn) die(lib.path + ": no symbol " + name);
}

} // namespace bench
