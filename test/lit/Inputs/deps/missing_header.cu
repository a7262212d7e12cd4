// Preprocessing fails: the dependency file must be left as it was.
#include "dep.h"
#include "no_such_header.h"
