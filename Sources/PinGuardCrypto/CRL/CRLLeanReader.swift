import COpenSSL
import Foundation
import PinGuardCore

/// Reads a CRL for some certificates without parsing every entry: OpenSSL's parse of a 30 MB list of 1.4 million
/// entries takes about 285 MB, which one hostile distribution point could ask for again and again. Here the list's
/// bytes are walked (`DER`), the signature is verified over the `tbsCertList` bytes as they are, the list's own
/// facts (issuer, times, extensions) are read by OpenSSL from a copy without its entries, and only the entries of
/// the serials asked about are parsed. Memory: the bytes, plus a few bytes per entry asked about.
enum CRLLeanReader {
    /// Where a list's parts lie in its bytes.
    struct Layout {
        var tbs: DER.Element
        var signatureAlgorithm: DER.Element
        var signature: DER.Element
        /// The `revokedCertificates` SEQUENCE, when the list has entries.
        var entries: DER.Element?
    }

    /// The verified list of `der` for `serials`, or why not.
    static func read(_ der: [UInt8], issuerPublicKeyDER: [UInt8], only serials: Set<String>) -> Result<RevocationList, RevocationUnknown> {
        guard let layout = try? layout(der) else { return .failure(.unparseable) }
        guard let key = CRLReader.publicKey(issuerPublicKeyDER) else { return .failure(.badSignature) }
        defer { EVP_PKEY_free(key) }
        guard verify(der, layout, key: key) else { return .failure(.badSignature) }
        guard let stripped = CRLReader.parse(withoutEntries(der, layout)) else { return .failure(.unparseable) }
        defer { X509_CRL_free(stripped) }
        var list = CRLReader.facts(of: stripped, only: serials)
        guard let found = try? entries(der, layout, serials: serials) else { return .failure(.unparseable) }
        list.revoked = found
        return .success(list)
    }

    /// The entries of `serials` and the list's facts read as `read` reads them, without verifying the signature:
    /// what the fuzz target compares with OpenSSL's full parse, and nothing else may believe.
    static func unverified(_ der: [UInt8], only serials: Set<String>) -> RevocationList? {
        guard let layout = try? layout(der), let stripped = CRLReader.parse(withoutEntries(der, layout)) else { return nil }
        defer { X509_CRL_free(stripped) }
        var list = CRLReader.facts(of: stripped, only: serials)
        guard let found = try? entries(der, layout, serials: serials) else { return nil }
        list.revoked = found
        return list
    }

    /// The outer SEQUENCE's three parts and the entries inside `tbsCertList`.
    static func layout(_ der: [UInt8]) throws(DER.Malformed) -> Layout {
        let outer = try DER.element(der, at: 0, limit: der.count)
        guard isSequence(outer.tag), outer.end == der.count else { throw DER.Malformed(message: "not one SEQUENCE") }
        let tbs = try DER.element(der, at: outer.contentStart, limit: outer.end)
        let algorithm = try DER.element(der, at: tbs.end, limit: outer.end)
        let signature = try DER.element(der, at: algorithm.end, limit: outer.end)
        guard isSequence(tbs.tag), isSequence(algorithm.tag), signature.tag == 0x03, signature.end == outer.end,
              signature.end > signature.contentStart, der[signature.contentStart] == 0 else {
            throw DER.Malformed(message: "not a CertificateList")
        }
        var field = try DER.element(der, at: tbs.contentStart, limit: tbs.end)
        if field.tag == 0x02 { field = try DER.element(der, at: field.end, limit: tbs.end) }  // version
        let issuer = try DER.element(der, at: field.end, limit: tbs.end)                        // after signature
        var next = try DER.element(der, at: issuer.end, limit: tbs.end)                          // thisUpdate
        var entries: DER.Element?
        for _ in 0..<2 where next.end < tbs.end {
            next = try DER.element(der, at: next.end, limit: tbs.end)
            if isSequence(next.tag) { entries = next; break }
        }
        return Layout(tbs: tbs, signatureAlgorithm: algorithm, signature: signature, entries: entries)
    }

    /// Whether `tag` is read as a SEQUENCE: 0x30, or 0x10 (the constructed bit clear), which OpenSSL's parser takes
    /// as one too; the lean read must find the entries wherever the full parse finds them.
    static func isSequence(_ tag: UInt8) -> Bool { tag & 0xDF == 0x10 }

    /// Whether the signature verifies with `key` over the `tbsCertList` bytes, with the digest the signature
    /// algorithm names (none for Ed25519). RSA-PSS and unknown algorithms do not verify here.
    static func verify(_ der: [UInt8], _ layout: Layout, key: OpaquePointer) -> Bool {
        let algorithm = Array(der[layout.signatureAlgorithm.contentStart..<layout.signatureAlgorithm.end])
        guard let oid = try? DER.element(algorithm, at: 0, limit: algorithm.count), oid.tag == 0x06 else { return false }
        let encoded = Array(algorithm[oid.headerStart..<oid.end])
        let object = encoded.withUnsafeBufferPointer { buf -> OpaquePointer? in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_ASN1_OBJECT(nil, &p, buf.count)
        }
        guard let object else { return false }
        defer { ASN1_OBJECT_free(object) }
        var digestNID: Int32 = 0, keyNID: Int32 = 0
        guard OBJ_find_sigid_algs(OBJ_obj2nid(object), &digestNID, &keyNID) == 1 else { return false }
        let digest = digestNID == NID_undef ? nil : EVP_get_digestbyname(OBJ_nid2sn(digestNID))
        guard digest != nil || keyNID == NID_ED25519 || keyNID == NID_ED448 else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else { return false }
        let signature = der[(layout.signature.contentStart + 1)..<layout.signature.end]
        return signature.withUnsafeBufferPointer { sig in
            der[layout.tbs.headerStart..<layout.tbs.end].withUnsafeBufferPointer { tbs in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, tbs.baseAddress, tbs.count) == 1
            }
        }
    }

    /// The list re-encoded without its entries (the signature no longer covers it: it is only read for the
    /// list's own facts, after the original verified).
    static func withoutEntries(_ der: [UInt8], _ layout: Layout) -> [UInt8] {
        guard let entries = layout.entries else { return der }
        let tbsContent = Array(der[layout.tbs.contentStart..<entries.headerStart]) + der[entries.end..<layout.tbs.end]
        let content = sequence(tbsContent) + der[layout.signatureAlgorithm.headerStart..<layout.signature.end]
        return sequence(content)
    }

    /// `content` as a DER SEQUENCE.
    static func sequence(_ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var n = content.count
        if n < 0x80 {
            length = [UInt8(n)]
        } else {
            while n > 0 { length.insert(UInt8(n & 0xFF), at: 0); n >>= 8 }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [0x30] + length + content
    }

    /// The entries of `serials`, each parsed by OpenSSL on its own; a later entry for a serial replaces an earlier.
    static func entries(_ der: [UInt8], _ layout: Layout, serials: Set<String>) throws(DER.Malformed) -> [String: RevokedEntry] {
        guard let list = layout.entries, !serials.isEmpty else { return [:] }
        var out: [String: RevokedEntry] = [:]
        var cursor = list.contentStart
        while cursor < list.end {
            let entry = try DER.element(der, at: cursor, limit: list.end)
            let serial = try DER.element(der, at: entry.contentStart, limit: entry.end)
            guard isSequence(entry.tag), serial.tag == 0x02, serial.end > serial.contentStart else {
                throw DER.Malformed(message: "a revoked certificate entry is not SEQUENCE { INTEGER, ... }")
            }
            cursor = entry.end
            guard let hex = serialHex(der[serial.contentStart..<serial.end]), serials.contains(hex) else { continue }
            guard let parsed = parsedEntry(Array(der[entry.headerStart..<entry.end])) else {
                throw DER.Malformed(message: "a revoked certificate entry does not parse")
            }
            out[hex] = parsed
        }
        return out
    }

    /// A non-negative INTEGER's content as `BN_bn2hex` writes it (upper case, whole bytes, no leading zero
    /// bytes, `0` for zero); nil for a negative one, which no CA issues and `CertificateReader` writes with a sign.
    static func serialHex(_ content: ArraySlice<UInt8>) -> String? {
        guard let first = content.first, first & 0x80 == 0 else { return nil }
        let magnitude = content.drop { $0 == 0 }
        guard !magnitude.isEmpty else { return "0" }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(magnitude.count * 2)
        for b in magnitude { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// One entry's date and reason, parsed by OpenSSL; nil when it does not parse (the whole list is then
    /// unparseable, as OpenSSL's parse of the whole list would make it).
    static func parsedEntry(_ der: [UInt8]) -> RevokedEntry? {
        let parsed = der.withUnsafeBufferPointer { buf -> OpaquePointer? in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_X509_REVOKED(nil, &p, buf.count)
        }
        guard let parsed else { return nil }
        defer { X509_REVOKED_free(parsed) }
        return RevokedEntry(revokedAt: CertificateReader.time(X509_REVOKED_get0_revocationDate(parsed)), reason: CRLReader.reason(of: parsed))
    }
}
