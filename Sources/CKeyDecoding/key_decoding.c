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
 * Those methods work only on keys they decoded or generated, so the registration happens when the process
 * starts, before any key exists, and private keys read through the providers' decoders (PEM, PKCS#12) are
 * adopted: copied into keys of the built-in methods (pg_key_decoding_adopt).
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/engine.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/rsa.h>
#include "pg_key_decoding.h"

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

__attribute__((constructor)) static void register_builtin_methods(void) {
    ENGINE *e = ENGINE_new();
    if (e == NULL) return;
    if (ENGINE_set_id(e, "pinguard-builtin-keys") && ENGINE_set_name(e, "OpenSSL's built-in RSA and EC methods")
        && ENGINE_set_pkey_meths(e, builtin_methods) && ENGINE_register_pkey_meths(e)) {
        registered = 1;
        return; /* the engine lives as long as the process: the registration table points at it */
    }
    ENGINE_free(e);
}

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
