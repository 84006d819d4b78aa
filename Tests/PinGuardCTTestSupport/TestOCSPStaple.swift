import COpenSSL
import Foundation
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport

/// A DER OCSP response for `openssl s_server -status_file` that staples SCTs: status `good` for the leaf,
/// signed by its issuer, the SCT list in the single response's extension 1.3.6.1.4.1.11129.2.4.5.
public enum TestOCSPStaple {
    /// The response for `leaf` issued by `issuer`, carrying `list` (a TLS-encoded SCT list).
    public static func response(for leaf: DemoCertificate, issuer: DemoCertificate, list: [UInt8]) throws -> [UInt8] {
        guard let id = OCSP_cert_to_id(EVP_sha1(), leaf.pointer, issuer.pointer) else { throw HarnessError("OCSP_cert_to_id") }
        guard let basic = OCSP_BASICRESP_new() else {
            OCSP_CERTID_free(id)
            throw HarnessError("OCSP_BASICRESP_new")
        }
        defer { OCSP_BASICRESP_free(basic) }
        let thisUpdate = X509_gmtime_adj(nil, -60), nextUpdate = X509_gmtime_adj(nil, 86_400)
        defer { ASN1_TIME_free(thisUpdate); ASN1_TIME_free(nextUpdate) }
        let single = OCSP_basic_add1_status(basic, id, V_OCSP_CERTSTATUS_GOOD, 0, nil, thisUpdate, nextUpdate)
        OCSP_CERTID_free(id)
        guard let single else { throw HarnessError("OCSP_basic_add1_status: \(OpenSSLErrorQueue.drain())") }
        try addSCTs(list, to: single)
        guard OCSP_basic_sign(basic, issuer.pointer, issuer.key.pointer, EVP_sha256(), nil, 0) == 1,
              let response = OCSP_response_create(OCSP_RESPONSE_STATUS_SUCCESSFUL, basic) else {
            throw HarnessError("cannot sign the OCSP response: \(OpenSSLErrorQueue.drain())")
        }
        defer { OCSP_RESPONSE_free(response) }
        guard let der = CertificateReader.der(of: response, encode: i2d_OCSP_RESPONSE) else { throw HarnessError("i2d_OCSP_RESPONSE") }
        return der
    }

    private static func addSCTs(_ list: [UInt8], to single: OpaquePointer) throws {
        let value = TLSBytes.derOctetString(list)
        guard let octets = ASN1_OCTET_STRING_new() else { throw HarnessError("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(octets) }
        guard ASN1_OCTET_STRING_set(octets, value, Int32(value.count)) == 1,
              let e = X509_EXTENSION_create_by_NID(nil, NID_ct_cert_scts, 0, octets) else {
            throw HarnessError("SCT extension: \(OpenSSLErrorQueue.drain())")
        }
        defer { X509_EXTENSION_free(e) }
        guard OCSP_SINGLERESP_add_ext(single, e, -1) == 1 else { throw HarnessError("OCSP_SINGLERESP_add_ext") }
    }
}
