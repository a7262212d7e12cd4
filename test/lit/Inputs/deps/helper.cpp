// A C++ source: its dependency rule comes from the host compiler.
#include "dep.h"
int helper() { return DEP_VALUE; }
