/* Two configurations with the same names in one translation unit. */
#include "att64.h"
#include "att128.h"
