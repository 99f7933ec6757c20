/* CHECK for the mock run test's translation units: a failed condition is printed and counted in
   mock_failures (defined in mock_run_test.c), and the test goes on. */
#ifndef TILEC_MOCK_CHECK_H
#define TILEC_MOCK_CHECK_H

#include <stdio.h>

extern int mock_failures;

#define CHECK(cond)                                                               \
  do {                                                                            \
    if (!(cond)) {                                                                \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
      ++mock_failures;                                                            \
    }                                                                             \
  } while (0)

#endif
