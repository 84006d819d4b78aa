import Foundation

/// The facts of a certificate that follow from its bytes, held once on the heap and shared by every
/// `ChainCertificate` value of the same certificate: a service holding 100,000 results keeps one copy of
/// each distinct certificate however many chains list it.
///
/// Only `ChainCertificate` mutates an instance, and only while it holds the sole reference
/// (`isKnownUniquelyReferenced`), copying it otherwise; a shared instance is never written, which is what
/// makes handing it across threads safe.
final class CertificateFacts: @unchecked Sendable {
    var subject: String
    var issuer: String
    var serial: String
    var notBefore: Date
    var notAfter: Date
    var spkiSHA256: String
    var certSHA256: String
    var rawKeySHA256: String?
    var spkiSHA1: String?
    var authorityKeyID: String?
    var keyType: String
    var isCA: Bool
    var selfIssued: Bool
    var crlDistributionPoints: [String] = []
    var publicKeyDER: [UInt8]?

    init(subject: String, issuer: String, serial: String, notBefore: Date, notAfter: Date, spkiSHA256: String,
         certSHA256: String, rawKeySHA256: String?, spkiSHA1: String? = nil, keyType: String, isCA: Bool, selfIssued: Bool) {
        self.subject = subject
        self.issuer = issuer
        self.serial = serial
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.spkiSHA256 = spkiSHA256
        self.certSHA256 = certSHA256
        self.rawKeySHA256 = rawKeySHA256
        self.spkiSHA1 = spkiSHA1
        self.keyType = keyType
        self.isCA = isCA
        self.selfIssued = selfIssued
    }

    /// A new instance with the same facts (the copy of copy-on-write).
    func copy() -> CertificateFacts {
        let copied = CertificateFacts(subject: subject, issuer: issuer, serial: serial, notBefore: notBefore, notAfter: notAfter,
                                      spkiSHA256: spkiSHA256, certSHA256: certSHA256, rawKeySHA256: rawKeySHA256, spkiSHA1: spkiSHA1,
                                      keyType: keyType, isCA: isCA, selfIssued: selfIssued)
        copied.authorityKeyID = authorityKeyID
        copied.crlDistributionPoints = crlDistributionPoints
        copied.publicKeyDER = publicKeyDER
        return copied
    }

    /// Whether `other` holds the same facts (the same instance, or equal fields).
    func sameFacts(as other: CertificateFacts) -> Bool {
        self === other || (certSHA256 == other.certSHA256 && spkiSHA256 == other.spkiSHA256 && subject == other.subject
            && issuer == other.issuer && serial == other.serial && notBefore == other.notBefore && notAfter == other.notAfter
            && rawKeySHA256 == other.rawKeySHA256 && spkiSHA1 == other.spkiSHA1 && authorityKeyID == other.authorityKeyID && keyType == other.keyType && isCA == other.isCA && selfIssued == other.selfIssued)
    }
}
