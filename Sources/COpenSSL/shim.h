#ifndef PINGUARD_COPENSSL_SHIM_H
#define PINGUARD_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/crypto.h>

/* Macros Swift cannot import, wrapped as functions. */
static inline long pg_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline int pg_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *pg_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline int pg_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int v) {
    return (int)SSL_CTX_set_min_proto_version(ctx, v);
}
static inline long pg_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
static inline void pg_SSL_CTX_set_mode_auto_retry_off(SSL_CTX *ctx) { SSL_CTX_clear_mode(ctx, SSL_MODE_AUTO_RETRY); }
static inline int pg_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline int pg_X509_NAME_print_rfc2253(BIO *bio, const X509_NAME *name) {
    return X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253);
}
static inline int pg_ERR_GET_LIB(unsigned long e) { return ERR_GET_LIB(e); }
static inline int pg_ERR_GET_REASON(unsigned long e) { return ERR_GET_REASON(e); }
static inline void pg_OPENSSL_free(void *p) { OPENSSL_free(p); }
static inline int pg_SSL_set_verify_none(SSL *ssl) { SSL_set_verify(ssl, SSL_VERIFY_NONE, NULL); return 1; }

/* In-memory PKI and loopback TLS servers for the built-in demo and the benchmark. */
static inline EVP_PKEY *pg_keygen(int kind) {
    switch (kind) {
    case 1: return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
    case 2: return EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
    default: return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
    }
}
static inline int pg_add_ext(X509 *x, X509V3_CTX *ctx, int nid, const char *value) {
    X509_EXTENSION *e = X509V3_EXT_conf_nid(NULL, ctx, nid, value);
    if (!e) return 0;
    int ok = X509_add_ext(x, e, -1);
    X509_EXTENSION_free(e);
    return ok;
}
static inline X509 *pg_make_cert(EVP_PKEY *key, EVP_PKEY *issuer_key, X509 *issuer, const char *cn,
                                 const char *san, int is_ca, long not_before, long not_after, long serial) {
    X509 *x = X509_new();
    if (!x) return NULL;
    X509_set_version(x, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(x), serial);
    X509_gmtime_adj(X509_getm_notBefore(x), not_before);
    X509_gmtime_adj(X509_getm_notAfter(x), not_after);
    X509_set_pubkey(x, key);
    X509_NAME *name = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, (const unsigned char *)"pinguard demo", -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
    X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer ? issuer : x, x, NULL, NULL, 0);
    int ok = pg_add_ext(x, &ctx, NID_basic_constraints, is_ca ? "critical,CA:TRUE" : "critical,CA:FALSE")
        && pg_add_ext(x, &ctx, NID_key_usage, is_ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature,keyEncipherment")
        && pg_add_ext(x, &ctx, NID_subject_key_identifier, "hash");
    if (ok && san) ok = pg_add_ext(x, &ctx, NID_subject_alt_name, san);
    const EVP_MD *md = EVP_PKEY_get_id(issuer_key) == EVP_PKEY_ED25519 ? NULL : EVP_sha256();
    if (!ok || !X509_sign(x, issuer_key, md)) { X509_free(x); return NULL; }
    return x;
}
static inline SSL_CTX *pg_server_ctx(X509 *leaf, EVP_PKEY *key, X509 *chain_cert) {
    SSL_CTX *c = SSL_CTX_new(TLS_server_method());
    if (!c) return NULL;
    if (SSL_CTX_use_certificate(c, leaf) != 1 || SSL_CTX_use_PrivateKey(c, key) != 1
        || (chain_cert && SSL_CTX_add1_chain_cert(c, chain_cert) != 1)) { SSL_CTX_free(c); return NULL; }
    return c;
}
#endif
