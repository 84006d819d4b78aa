import COpenSSL
import Foundation
import PinGuardCrypto
import PinGuardDemo
import PinGuardTestSupport

/// Issues certificates the way a CA taking part in CT does (RFC 6962 §3.1): a precertificate marked by the
/// critical poison extension, SCTs from the chosen logs over it, then the final certificate with the SCT
/// list embedded.
///
/// ```swift
/// let pki = try CTTestPKI()
/// let logs = try TestCTLog.make(3)
/// let leaf = try CTCertificateIssuer.issue(commonName: "ct.pinguard.test", dnsName: "ct.pinguard.test",
///                                          key: try DemoKey(), issuer: pki.intermediate, serial: 7,
///                                          embedding: logs.map { TestSCT(log: $0, timestamp: issued) })
/// try TestLogListJSON.write(to: path, timestamp: listDate, entries: logs.map { TestLogListEntry(log: $0, operatorName: $0.name) })
/// ```
public enum CTCertificateIssuer {
    /// Issues a leaf for `key` under `issuer` (a CA certificate whose key signs), validity in seconds relative
    /// to now, with an SCT from each of `scts` embedded. With `malformedList` the embedded list loses its
    /// last byte, so it no longer parses (the extension itself stays well-formed DER).
    public static func issue(commonName: String, dnsName: String?, key: DemoKey, issuer: DemoCertificate,
                             validFrom: TimeInterval = -3600, validUntil: TimeInterval = 90 * 86_400, serial: Int,
                             embedding scts: [TestSCT], malformedList: Bool = false) throws -> CTIssuedCertificate {
        let template = try DemoCertificate.issue(commonName: commonName, dnsName: dnsName, key: key, issuer: issuer,
                                                 isCA: false, validFrom: validFrom, validUntil: validUntil, serial: serial)
        let precertificate = try copy(template.pointer)
        let poison: [UInt8] = [0x05, 0x00]  // the extension's value is ASN.1 NULL
        try add(to: precertificate, nid: NID_ct_precert_poison, critical: true, value: poison, free: true)
        try sign(precertificate, with: issuer.key, free: true)
        let precert = DemoCertificate(pointer: precertificate, key: key)
        return try finish(precert, issuer: issuer, embedding: scts, malformedList: malformedList)
    }

    /// What a log does with a submitted precertificate (drop the poison, sign the rest of the TBS), then
    /// what the CA does with the SCTs (embed them, sign again).
    private static func finish(_ precert: DemoCertificate, issuer: DemoCertificate, embedding scts: [TestSCT],
                               malformedList: Bool) throws -> CTIssuedCertificate {
        let final = try copy(precert.pointer)
        let poisonIndex = X509_get_ext_by_NID(final, NID_ct_precert_poison, -1)
        if poisonIndex >= 0 { X509_EXTENSION_free(X509_delete_ext(final, poisonIndex)) }
        guard let tbs = CertificateReader.der(of: final, encode: i2d_re_X509_tbs) else {
            X509_free(final)
            throw HarnessError("cannot encode the precertificate's TBSCertificate")
        }
        let entry = SCTSignedEntry.precertificate(issuerKeyHash: TestCTLog.sha256(issuer.key.publicKeyDER), tbs: tbs)
        let signed: [[UInt8]]
        do { signed = try scts.map { try $0.signed(over: entry) } } catch { X509_free(final); throw error }
        var list = TestSCTList.encode(signed)
        if malformedList { list.removeLast() }
        try add(to: final, nid: NID_ct_precert_scts, critical: false, value: TLSBytes.derOctetString(list), free: true)
        try sign(final, with: issuer.key, free: true)
        return CTIssuedCertificate(precertificate: precert, certificate: DemoCertificate(pointer: final, key: precert.key),
                                   precertificateTBS: tbs, scts: signed)
    }

    private static func copy(_ x509: OpaquePointer) throws -> OpaquePointer {
        guard let x = X509_dup(x509) else { throw HarnessError("X509_dup") }
        return x
    }

    /// Appends an extension whose extnValue holds `value` (DER); on failure frees `x509` when `free`.
    private static func add(to x509: OpaquePointer, nid: Int32, critical: Bool, value: [UInt8], free: Bool) throws {
        guard let octets = ASN1_OCTET_STRING_new() else { throw HarnessError("ASN1_OCTET_STRING_new") }
        defer { ASN1_OCTET_STRING_free(octets) }
        let added: Bool
        if ASN1_OCTET_STRING_set(octets, value, Int32(value.count)) == 1,
           let e = X509_EXTENSION_create_by_NID(nil, nid, critical ? 1 : 0, octets) {
            added = X509_add_ext(x509, e, -1) == 1
            X509_EXTENSION_free(e)
        } else {
            added = false
        }
        if !added {
            if free { X509_free(x509) }
            throw HarnessError("cannot add extension \(nid): \(OpenSSLErrorQueue.drain())")
        }
    }

    private static func sign(_ x509: OpaquePointer, with key: DemoKey, free: Bool) throws {
        // Ed25519 signs without a separate digest.
        let digest = EVP_PKEY_get_id(key.pointer) == EVP_PKEY_ED25519 ? nil : EVP_sha256()
        guard X509_sign(x509, key.pointer, digest) > 0 else {
            if free { X509_free(x509) }
            throw HarnessError("cannot sign: \(OpenSSLErrorQueue.drain())")
        }
    }
}
