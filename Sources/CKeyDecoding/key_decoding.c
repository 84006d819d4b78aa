/*
 * Fast public-key decoding on OpenSSL 3.0.
 *
 * Every certificate d2i_X509 reads (a TLS handshake parses each served certificate) decodes its public
 * key. OpenSSL 3.0 does that through an OSSL_DECODER chain it builds afresh for each key, looking up every
 * decoder of its providers under a lock: about a quarter of a millisecond per certificate, a third of a
 * probe's CPU. When an ENGINE is registered for a key type, OpenSSL 3.0 decodes keys of that type with its
 * built-in ASN.1 code instead (x509_pubkey_decode), about five times faster, and runs every operation on
 * keys of that type through the engine's methods. The engine registered here supplies OpenSSL's own
 * built-in methods (EVP_PKEY_meth_find) for RSA and EC: the algorithms and their results are OpenSSL's.
 *
 * Those methods work only on keys they decoded or generated, so the registration must happen before any key
 * exists: the program calls pg_key_decoding_install first thing (nothing is registered when the library is
 * merely loaded), and private keys read through the providers' decoders (PEM, PKCS#12) are adopted: copied
 * into keys of the built-in methods (pg_key_decoding_adopt). The engine is registered on OpenSSL 3.0 only, the
 * series whose decoding path was measured; the named-curves method (named_curves.c) only on the exact
 * releases whose private layout was checked.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include <pthread.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/x509.h>
#include "pg_key_decoding.h"
#include "named_curves_internal.h"

static const int builtin_nids[] = { EVP_PKEY_RSA, EVP_PKEY_EC };
static int registered = 0;

static int builtin_methods(ENGINE *e, EVP_PKEY_METHOD **method, const int **nids, int nid) {
    (void)e;
    if (method == NULL) {
        *nids = builtin_nids;
        return (int)(sizeof builtin_nids / sizeof builtin_nids[0]);
    }
    *method = (EVP_PKEY_METHOD *)EVP_PKEY_meth_find(nid);
    return *method != NULL;
}

static const int curve_method_nids[] = { EVP_PKEY_EC };
static EVP_PKEY_ASN1_METHOD *curve_method = NULL;
static int curves_registered = 0;

static int curve_methods(ENGINE *e, EVP_PKEY_ASN1_METHOD **method, const int **nids, int nid) {
    (void)e;
    if (method == NULL) {
        *nids = curve_method_nids;
        return 1;
    }
    *method = nid == EVP_PKEY_EC ? curve_method : NULL;
    return *method != NULL;
}

/* A P-256 public key (SubjectPublicKeyInfo, DER): decoded through the engine's EC method, it must come
 * back byte for byte, 256 bits, as an EC key. */
static const unsigned char p256_spki[] = {
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
    0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04, 0x46, 0x2d, 0x58, 0xf4, 0x0e, 0xd4, 0x5a, 0x1b, 0xe9,
    0xa4, 0x0e, 0xd4, 0xa3, 0xa2, 0x60, 0x89, 0xea, 0x82, 0x16, 0x42, 0x8f, 0x9e, 0x1a, 0x09, 0xb1, 0xb0, 0xba,
    0x1a, 0xc5, 0x07, 0xb8, 0xc3, 0x62, 0x54, 0xfe, 0x55, 0xc7, 0x6c, 0xdc, 0xa7, 0x78, 0xe5, 0xa3, 0x08, 0x21,
    0xe2, 0x7e, 0x9c, 0xd9, 0x19, 0xbe, 0x7c, 0x4c, 0x65, 0xfc, 0xbd, 0x37, 0x0a, 0x00, 0x5c, 0x0a, 0x7f, 0xf4,
    0x3b,
};

static int curve_method_round_trips(void) {
    const unsigned char *p = p256_spki;
    EVP_PKEY *key = d2i_PUBKEY(NULL, &p, (long)sizeof p256_spki);
    unsigned char *der = NULL;
    int length = key != NULL ? i2d_PUBKEY(key, &der) : -1;
    int ok = key != NULL && EVP_PKEY_get0_asn1(key) == curve_method && EVP_PKEY_get_bits(key) == 256
        && EVP_PKEY_get_base_id(key) == EVP_PKEY_EC && length == (int)sizeof p256_spki
        && memcmp(der, p256_spki, sizeof p256_spki) == 0;
    OPENSSL_free(der);
    EVP_PKEY_free(key);
    ERR_clear_error(); /* a failed check leaves nothing for the first real operation to report */
    return ok;
}

/* EC keys of the common named curves decoded on curves built once (named_curves.c), when the method's
 * layout checks out and a key round-trips through it. */
static void register_named_curves(ENGINE *e) {
    curve_method = pg_named_curves_method();
    if (curve_method == NULL || !ENGINE_set_pkey_asn1_meths(e, curve_methods) || !ENGINE_register_pkey_asn1_meths(e)) return;
    if (curve_method_round_trips()) {
        curves_registered = 1;
        return;
    }
    ENGINE_unregister_pkey_asn1_meths(e);
}

static void register_builtin_methods(void) {
    if (OPENSSL_version_major() != 3 || OPENSSL_version_minor() != 0) return;
    ENGINE *e = ENGINE_new();
    if (e == NULL) return;
    if (ENGINE_set_id(e, "pinguard-builtin-keys") && ENGINE_set_name(e, "OpenSSL's built-in RSA and EC methods")
        && ENGINE_set_pkey_meths(e, builtin_methods) && ENGINE_register_pkey_meths(e)) {
        registered = 1;
        if (pg_named_curves_checked_release()) register_named_curves(e);
        return; /* the engine lives as long as the process: the registration table points at it */
    }
    ENGINE_free(e);
}

static pthread_once_t install_once = PTHREAD_ONCE_INIT;

int pg_key_decoding_install(void) {
    pthread_once(&install_once, register_builtin_methods);
    return registered;
}

int pg_key_decoding_named_curves(void) { return curves_registered; }

int pg_key_decoding_registered(void) { return registered; }

int pg_key_decoding_is_builtin(int nid) {
    ENGINE *e = ENGINE_get_pkey_meth_engine(nid);
    if (e == NULL) return 0;
    ENGINE_finish(e);
    return 1;
}

void *pg_key_decoding_adopt(void *key) {
    EVP_PKEY *k = key;
    if (k == NULL || !registered || EVP_PKEY_get0_provider(k) == NULL) return k;
    EVP_PKEY *copy = NULL;
    switch (EVP_PKEY_get_base_id(k)) {
    case EVP_PKEY_EC: {
        EC_KEY *ec = EVP_PKEY_get1_EC_KEY(k);
        copy = EVP_PKEY_new();
        if (ec == NULL || copy == NULL || EVP_PKEY_assign_EC_KEY(copy, ec) != 1) { EC_KEY_free(ec); EVP_PKEY_free(copy); copy = NULL; }
        break;
    }
    case EVP_PKEY_RSA: {
        RSA *rsa = EVP_PKEY_get1_RSA(k);
        copy = EVP_PKEY_new();
        if (rsa == NULL || copy == NULL || EVP_PKEY_assign_RSA(copy, rsa) != 1) { RSA_free(rsa); EVP_PKEY_free(copy); copy = NULL; }
        break;
    }
    default:
        return k;
    }
    EVP_PKEY_free(k);
    return copy;
}

int pg_key_decoding_checked_release(void) { return pg_named_curves_checked_release(); }
