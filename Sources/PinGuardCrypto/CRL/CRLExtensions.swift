import COpenSSL
import PinGuardCore

/// The extensions of CRLs and certificates that decide a list's scope: a list's issuing distribution point
/// and unknown critical extensions, a certificate's CRL distribution points.
enum CRLExtensions {
    /// The CRL extensions pinguard understands (RFC 5280 §5.2); a critical one outside these makes a list unusable.
    static let understood: Set<Int32> = [
        NID_authority_key_identifier, NID_issuer_alt_name, NID_crl_number, NID_delta_crl,
        NID_issuing_distribution_point, NID_freshest_crl, NID_info_access,
    ]

    /// The list's issuing distribution point; nil when it has none (or it cannot be decoded: then it is
    /// reported as an unknown critical extension when critical, as the extension always is).
    static func issuingDistributionPoint(of crl: OpaquePointer) -> IssuingDistributionPoint? {
        guard let raw = X509_CRL_get_ext_d2i(crl, NID_issuing_distribution_point, nil, nil) else { return nil }
        let idp = raw.assumingMemoryBound(to: ISSUING_DIST_POINT.self)
        defer { ISSUING_DIST_POINT_free(idp) }
        let point = idp.pointee
        return IssuingDistributionPoint(
            uris: uris(pg_DIST_POINT_NAME_fullname(point.distpoint)),
            namesDistributionPoint: point.distpoint != nil,
            onlyUserCertificates: point.onlyuser != 0, onlyCACertificates: point.onlyCA != 0,
            onlyAttributeCertificates: point.onlyattr != 0, onlySomeReasons: point.onlysomereasons != nil,
            indirect: point.indirectCRL != 0)
    }

    /// The OIDs (dotted) of critical extensions of the list outside `understood`, and of an issuing
    /// distribution point that does not decode.
    static func unknownCritical(of crl: OpaquePointer) -> [String] {
        var out: [String] = []
        for i in 0..<max(X509_CRL_get_ext_count(crl), 0) {
            guard let ext = X509_CRL_get_ext(crl, i), X509_EXTENSION_get_critical(ext) != 0 else { continue }
            let object = X509_EXTENSION_get_object(ext)
            let nid = OBJ_obj2nid(object)
            let decodes = nid != NID_issuing_distribution_point || issuingDistributionPoint(of: crl) != nil
            if !understood.contains(nid) || !decodes { out.append(oid(object)) }
        }
        return out
    }

    /// The http and https URIs of a certificate's CRL distribution points, in order, without duplicates.
    /// Distribution points limited to some reasons or naming another CRL issuer are left out: their lists
    /// do not answer for every reason, or are indirect.
    static func distributionPoints(of x509: OpaquePointer) -> [String] {
        guard let raw = X509_get_ext_d2i(x509, NID_crl_distribution_points, nil, nil) else { return [] }
        let points = OpaquePointer(raw)
        defer { CRL_DIST_POINTS_free(points) }
        var out: [String] = []
        for i in 0..<max(pg_sk_DIST_POINT_num(points), 0) {
            guard let point = pg_sk_DIST_POINT_value(points, i)?.pointee, point.reasons == nil, point.CRLissuer == nil else { continue }
            for uri in uris(pg_DIST_POINT_NAME_fullname(point.distpoint)) where !out.contains(uri) { out.append(uri) }
        }
        return out.filter { $0.lowercased().hasPrefix("http://") || $0.lowercased().hasPrefix("https://") }
    }

    /// The URIs among `names`, read as bytes and kept only when they are printable ASCII (untrusted input).
    static func uris(_ names: OpaquePointer?) -> [String] {
        guard let names else { return [] }
        var out: [String] = []
        for i in 0..<max(pg_sk_GENERAL_NAME_num(names), 0) {
            if let uri = printableURI(pg_GENERAL_NAME_uri(pg_sk_GENERAL_NAME_value(names, i))) { out.append(uri) }
        }
        return out
    }

    /// A URI's text, when it is 1 to 2,048 bytes of printable ASCII without spaces (a certificate's URIs are
    /// untrusted input); nil otherwise.
    static func printableURI(_ uri: UnsafePointer<ASN1_STRING>?) -> String? {
        guard let uri, let data = ASN1_STRING_get0_data(uri) else { return nil }
        let bytes = UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(uri)))
        guard !bytes.isEmpty, bytes.count <= 2048, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The dotted form of an object identifier.
    static func oid(_ object: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        return cText(buffer)
    }
}
