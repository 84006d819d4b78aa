#ifndef PINGUARD_TEST_KEY_DECODING_H
#define PINGUARD_TEST_KEY_DECODING_H

/* Whether the test process had the built-in key methods in force before its first test (1) or not (0). */
int pg_test_key_decoding_installed_at_start(void);

#endif
