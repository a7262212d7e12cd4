// Preprocessing succeeds, compiling fails.
#include "dep.h"
int value() { return undefined_value + DEP_VALUE; }
