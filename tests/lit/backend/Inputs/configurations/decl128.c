/* Declarations of configuration D = 128 only, linked against the definitions of D = 64. */
#define ATTENTION_TILEC_DECLARATIONS_ONLY
#include "att128.h"
int main(void) {
  uint32_t grid[3];
  return (int)attention_grid(2, 8, 1000, 8, 0.1f, grid);
}
