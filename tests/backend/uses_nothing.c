/* Includes the generated header and calls none of it: still warning-free and linkable. */
#include "vector_add.h"

int main(void) { return 0; }
