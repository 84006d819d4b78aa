#ifndef PINGUARD_KEY_DECODING_H
#define PINGUARD_KEY_DECODING_H

/* Registers the built-in key methods (on OpenSSL 3.0) and, on a checked release, the named-curves decoding;
 * once per process, before any key exists. Returns whether the built-in methods are registered (1) or not (0). */
int pg_key_decoding_install(void);

/* Whether the built-in key methods are registered (1) or not (0). */
int pg_key_decoding_registered(void);

/* Whether EC public keys of P-256, P-384 and P-521 are decoded on curves built once (1) or each on a curve
 * built for it, as OpenSSL does (0). */
int pg_key_decoding_named_curves(void);

/* Whether the running OpenSSL is a release whose private layout the named-curves decoding was checked against (1)
 * or not (0): only there is it used. */
int pg_key_decoding_checked_release(void);

/* Whether keys of the OpenSSL type `nid` (EVP_PKEY_RSA, EVP_PKEY_EC) are decoded and used through the
 * built-in methods (1) or OpenSSL's providers (0). */
int pg_key_decoding_is_builtin(int nid);

/* `key` (an EVP_PKEY *) as a key of the built-in methods: a provider key of a registered type is copied into
 * a new key and freed; any other key is returned as it is. NULL when the copy fails (`key` is then freed). */
void *pg_key_decoding_adopt(void *key);

#endif
