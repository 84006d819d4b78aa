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
#include <openssl/pkcs12.h>
#include <openssl/hmac.h>
#include <openssl/core_names.h>
#include <openssl/ct.h>
#include <openssl/ocsp.h>
#include <openssl/pkcs7.h>

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

/* Certificate stacks (macros over OPENSSL_sk_*). */
static inline STACK_OF(X509) *pg_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int pg_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void pg_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }
static inline void pg_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }

/* Key generation: EVP_PKEY_Q_keygen is variadic, which Swift cannot call. */
/* RSA-PSS has no quick keygen in OpenSSL 3.0: a context of that name with the bits set. */
static inline EVP_PKEY *pg_keygen_rsa_pss(void) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA-PSS", NULL);
    if (ctx != NULL && EVP_PKEY_keygen_init(ctx) > 0 && EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, 2048) > 0) EVP_PKEY_generate(ctx, &key);
    EVP_PKEY_CTX_free(ctx);
    return key;
}
static inline EVP_PKEY *pg_keygen(int kind) {
    switch (kind) {
    case 1: return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
    case 2: return EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
    case 3: return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "secp384r1");
    case 4: return pg_keygen_rsa_pss();
    default: return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "prime256v1");
    }
}
/* SSL_CTX_add1_chain_cert is a macro over SSL_CTX_ctrl. */
static inline long pg_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *x) { return SSL_CTX_add1_chain_cert(ctx, x); }
/* SSL_add1_chain_cert is a macro over SSL_ctrl: the client identity's intermediates. */
static inline long pg_SSL_add1_chain_cert(SSL *ssl, X509 *x) { return SSL_add1_chain_cert(ssl, x); }
/* SCT stacks (macros over OPENSSL_sk_*). */
static inline int pg_sk_SCT_num(const STACK_OF(SCT) *sk) { return sk_SCT_num(sk); }
static inline SCT *pg_sk_SCT_value(const STACK_OF(SCT) *sk, int i) { return sk_SCT_value(sk, i); }
/* SSL_get_negotiated_group is a macro over SSL_ctrl: the NID (or TLSEXT_nid_unknown | id) of the group. */
static inline int pg_SSL_get_negotiated_group(SSL *ssl) { return (int)SSL_get_negotiated_group(ssl); }
static inline int pg_TLSEXT_nid_unknown(void) { return TLSEXT_nid_unknown; }
/* CRLs: stacks of revoked entries, distribution points and general names (macros over OPENSSL_sk_*). */
static inline int pg_sk_X509_REVOKED_num(const STACK_OF(X509_REVOKED) *sk) { return sk_X509_REVOKED_num(sk); }
static inline X509_REVOKED *pg_sk_X509_REVOKED_value(const STACK_OF(X509_REVOKED) *sk, int i) { return sk_X509_REVOKED_value(sk, i); }
static inline int pg_sk_DIST_POINT_num(const STACK_OF(DIST_POINT) *sk) { return sk_DIST_POINT_num(sk); }
static inline DIST_POINT *pg_sk_DIST_POINT_value(const STACK_OF(DIST_POINT) *sk, int i) { return sk_DIST_POINT_value(sk, i); }
static inline int pg_sk_GENERAL_NAME_num(const STACK_OF(GENERAL_NAME) *sk) { return sk_GENERAL_NAME_num(sk); }
static inline GENERAL_NAME *pg_sk_GENERAL_NAME_value(const STACK_OF(GENERAL_NAME) *sk, int i) { return sk_GENERAL_NAME_value(sk, i); }
/* The URI of a general name, NULL when it is another form (the union is awkward from Swift). */
static inline const ASN1_IA5STRING *pg_GENERAL_NAME_uri(const GENERAL_NAME *n) {
    return n != NULL && n->type == GEN_URI ? n->d.uniformResourceIdentifier : NULL;
}
/* The fullName of a distribution point name, NULL when it is a relative name or absent. */
static inline GENERAL_NAMES *pg_DIST_POINT_NAME_fullname(const DIST_POINT_NAME *n) {
    return n != NULL && n->type == 0 ? n->name.fullname : NULL;
}
/* The certificates of a PKCS#7 SignedData ("certs-only" CMS, RFC 5280 4.2.2.1); NULL for another type. */
static inline STACK_OF(X509) *pg_PKCS7_signed_certificates(PKCS7 *p7) {
    return (p7 != NULL && PKCS7_type_is_signed(p7) && p7->d.sign != NULL) ? p7->d.sign->cert : NULL;
}

/* Authority information access: how many descriptions, and the i-th one's URI when its method is caIssuers. */
static inline int pg_AIA_num(const AUTHORITY_INFO_ACCESS *a) { return sk_ACCESS_DESCRIPTION_num(a); }
static inline const ASN1_IA5STRING *pg_AIA_ca_issuers_uri(const AUTHORITY_INFO_ACCESS *a, int i) {
    const ACCESS_DESCRIPTION *d = sk_ACCESS_DESCRIPTION_value(a, i);
    if (d == NULL || OBJ_obj2nid(d->method) != NID_ad_ca_issuers) return NULL;
    return pg_GENERAL_NAME_uri(d->location);
}

#endif
