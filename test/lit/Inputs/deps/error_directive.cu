// Preprocessing fails with #error after including dep.h.
#include "dep.h"
#error preprocessing stops here
