/* Prints the D each translation unit's attention_metadata reports, and which are one object. */
#include <stdio.h>
#include <string.h>
#define ATTENTION_TILEC_DECLARATIONS_ONLY
#include "att64.h"

const tilec_kernel_metadata* meta_64(void);
const tilec_kernel_metadata* meta_64_again(void);
const tilec_kernel_metadata* meta_128(void);

static const char* constant(const tilec_kernel_metadata* m, const char* name) {
  int i;
  for (i = 0; i < m->num_constants; ++i)
    if (strcmp(m->constants[i].name, name) == 0) return m->constants[i].value;
  return "?";
}

int main(void) {
  printf("D: %s %s %s main %s\n", constant(meta_64(), "D"), constant(meta_64_again(), "D"),
         constant(meta_128(), "D"), constant(&attention_metadata, "D"));
  printf("one configuration, one object: %d; two configurations, two: %d\n",
         meta_64() == meta_64_again() && meta_64() == &attention_metadata, meta_64() != meta_128());
  return 0;
}
