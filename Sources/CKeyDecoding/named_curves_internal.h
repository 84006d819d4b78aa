#ifndef PINGUARD_NAMED_CURVES_H
#define PINGUARD_NAMED_CURVES_H
#include <openssl/evp.h>

/* OpenSSL's built-in EC method with public keys of P-256, P-384 and P-521 decoded on curves built once;
 * NULL when its layout is not the one checked for (then nothing is changed). Lives as long as the process. */
EVP_PKEY_ASN1_METHOD *pg_named_curves_method(void);

/* Whether the running OpenSSL is a release whose private method layout was checked (1) or not (0). */
int pg_named_curves_checked_release(void);

#endif
