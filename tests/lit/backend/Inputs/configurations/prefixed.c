/* The same two configurations, one with --prefix wide_: one translation unit holds both. */
#include <stdio.h>
#include <string.h>
#include "att64.h"
#include "att128_prefixed.h"

static const char* constant(const tilec_kernel_metadata* m, const char* name) {
  int i;
  for (i = 0; i < m->num_constants; ++i)
    if (strcmp(m->constants[i].name, name) == 0) return m->constants[i].value;
  return "?";
}

int main(void) {
  printf("D: %s wide %s\n", constant(&attention_metadata, "D"), constant(&wide_attention_metadata, "D"));
  return 0;
}
