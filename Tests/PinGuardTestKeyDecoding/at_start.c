/*
 * The test process installs the built-in key methods before any test runs, as the pinguard executable does
 * first thing in main: keys made by one test and used by another must all be held the same way.
 */
#include "pg_key_decoding.h"
#include "pg_test_key_decoding.h"

static int installed_at_start = 0;

__attribute__((constructor)) static void install_before_any_test(void) { installed_at_start = pg_key_decoding_install(); }

int pg_test_key_decoding_installed_at_start(void) { return installed_at_start; }
