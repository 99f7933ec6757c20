/* Uses the header tilec_add_kernel made. */
#include "vector_add.h"

int main(void) { return FAKE_TILEC_ARGS_OK ? 0 : 1; }
