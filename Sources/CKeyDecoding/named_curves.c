/*
 * EC public keys of the common named curves decoded without building their curve afresh.
 *
 * OpenSSL 3.0's built-in EC decoding (eckey_pub_decode) builds a new EC_GROUP for every key it reads:
 * EC_GROUP_new_by_curve_name computes the curve's Montgomery constants (about 11 µs for P-256 here), then
 * EC_KEY_set_group copies the new group and the original is freed. Here P-256, P-384 and P-521 are built
 * once, when the process starts, and each key gets a copy of the ready one (under 1 µs): the same key,
 * with the same curve, flags and point as the built-in decoding gives. Keys of any other curve, and keys
 * with explicit parameters, go to the built-in function itself.
 *
 * OpenSSL has no setter for one function of a method, so the built-in EC method is copied
 * (EVP_PKEY_asn1_copy) and its first function, pub_decode, replaced in the copy. The copy's layout is
 * relied on only on the exact OpenSSL releases it was checked against (pg_named_curves_checked_release);
 * there it is checked again (its type, its names and the pointer being set), and a self-test decodes and
 * re-encodes a P-256 key; when any check fails nothing is replaced and the built-in decoding stays in force.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include "named_curves_internal.h"

typedef int (*pub_decode_fn)(EVP_PKEY *, const X509_PUBKEY *);

/* The head of OpenSSL 3.0's struct evp_pkey_asn1_method_st (include/crypto/asn1.h). */
struct method_head {
    int pkey_id;
    int pkey_base_id;
    unsigned long pkey_flags;
    char *pem_str;
    char *info;
    pub_decode_fn pub_decode;
};

static const int curve_nids[] = { NID_X9_62_prime256v1, NID_secp384r1, NID_secp521r1 };
static EC_GROUP *curves[sizeof curve_nids / sizeof curve_nids[0]];
static pub_decode_fn builtin_pub_decode = NULL;
static const char method_info[] = "OpenSSL EC algorithm, named curves built once";

static const EC_GROUP *ready_curve(int nid) {
    for (size_t i = 0; i < sizeof curve_nids / sizeof curve_nids[0]; i++)
        if (curve_nids[i] == nid) return curves[i];
    return NULL;
}

/* eckey_pub_decode with a ready curve; any other key goes to the built-in function. */
static int pub_decode(EVP_PKEY *pkey, const X509_PUBKEY *pub) {
    const unsigned char *p = NULL;
    int length = 0, ptype = 0;
    const void *pval = NULL;
    X509_ALGOR *algorithm = NULL;
    if (!X509_PUBKEY_get0_param(NULL, &p, &length, &algorithm, pub)) return 0;
    X509_ALGOR_get0(NULL, &ptype, &pval, algorithm);
    const EC_GROUP *group = ptype == V_ASN1_OBJECT ? ready_curve(OBJ_obj2nid(pval)) : NULL;
    if (group == NULL) return builtin_pub_decode(pkey, pub);
    EC_KEY *key = EC_KEY_new();
    if (key == NULL || !EC_KEY_set_group(key, group) || !o2i_ECPublicKey(&key, &p, length)
        || !EVP_PKEY_assign_EC_KEY(pkey, key)) {
        EC_KEY_free(key);
        return 0;
    }
    return 1;
}

static int build_curves(void) {
    for (size_t i = 0; i < sizeof curve_nids / sizeof curve_nids[0]; i++) {
        curves[i] = EC_GROUP_new_by_curve_name(curve_nids[i]);
        if (curves[i] == NULL) return 0;
        EC_GROUP_set_asn1_flag(curves[i], OPENSSL_EC_NAMED_CURVE);
    }
    return 1;
}

/* The OpenSSL releases (OPENSSL_VERSION_NUMBER without its status nibble) whose struct
 * evp_pkey_asn1_method_st (include/crypto/asn1.h) was checked to begin as struct method_head does. */
static const unsigned long checked_releases[] = { 0x30000160UL /* 3.0.22 */ };

int pg_named_curves_checked_release(void) {
    unsigned long running = OpenSSL_version_num() & ~0xFUL;
    for (size_t i = 0; i < sizeof checked_releases / sizeof checked_releases[0]; i++)
        if (checked_releases[i] == running) return 1;
    return 0;
}

EVP_PKEY_ASN1_METHOD *pg_named_curves_method(void) {
    if (!pg_named_curves_checked_release()) return NULL;
    const EVP_PKEY_ASN1_METHOD *builtin = EVP_PKEY_asn1_find(NULL, EVP_PKEY_EC);
    EVP_PKEY_ASN1_METHOD *method = EVP_PKEY_asn1_new(EVP_PKEY_EC, 0, "EC", method_info);
    if (builtin == NULL || method == NULL || !build_curves()) goto fail;
    EVP_PKEY_asn1_copy(method, builtin);
    struct method_head *head = (struct method_head *)method;
    if (head->pkey_id != EVP_PKEY_EC || head->pkey_base_id != EVP_PKEY_EC || head->pem_str == NULL
        || strcmp(head->pem_str, "EC") != 0 || head->info == NULL || strcmp(head->info, method_info) != 0
        || head->pub_decode == NULL)
        goto fail;
    builtin_pub_decode = head->pub_decode;
    head->pub_decode = pub_decode;
    return method;
fail:
    if (method != NULL) EVP_PKEY_asn1_free(method);
    for (size_t i = 0; i < sizeof curve_nids / sizeof curve_nids[0]; i++) { EC_GROUP_free(curves[i]); curves[i] = NULL; }
    return NULL;
}
