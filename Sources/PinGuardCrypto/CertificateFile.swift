import COpenSSL

/// Certificates read from a file's bytes: a PEM bundle (every CERTIFICATE block, in order) or one DER
/// certificate.
package enum CertificateFile {
    /// The largest certificate file read (a chain is a few kilobytes).
    package static let maximumSize = 16 << 20

    /// Parsed certificates, owned by the caller (free each with `X509_free`); throws on a broken block
    /// (naming its position), on input that is neither PEM nor DER, and on oversized input.
    package static func parse(_ bytes: [UInt8], name: String) throws(ProbeError) -> [OpaquePointer] {
        guard bytes.count <= maximumSize else { throw ProbeError("\(name): larger than 16 MiB, not a certificate file") }
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let marker = Array("-----BEGIN".utf8)
        let isPEM = bytes.count >= marker.count && (0...(bytes.count - marker.count)).contains { i in
            bytes[i] == marker[0] && bytes[i..<(i + marker.count)].elementsEqual(marker)
        }
        guard isPEM else {
            var x: OpaquePointer?
            bytes.withUnsafeBufferPointer { buf in
                var p: UnsafePointer<UInt8>? = buf.baseAddress
                x = d2i_X509(nil, &p, buf.count)
            }
            guard let x else { throw ProbeError.openSSL("\(name): not a PEM bundle or a DER certificate") }
            return [x]
        }
        guard let bio = bytes.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
            throw ProbeError.openSSL("\(name): cannot allocate a buffer")
        }
        defer { BIO_free(bio) }
        var out: [OpaquePointer] = []
        while let x = PEM_read_bio_X509(bio, nil, nil, nil) { out.append(x) }
        // The loop ends at the end of the input ("no start line"); anything else is a broken block.
        let code = ERR_peek_last_error()
        if code != 0 && !(pg_ERR_GET_LIB(code) == ERR_LIB_PEM && pg_ERR_GET_REASON(code) == PEM_R_NO_START_LINE) {
            out.forEach { X509_free($0) }
            throw ProbeError.openSSL("\(name): certificate block \(out.count + 1) is broken")
        }
        if out.isEmpty { throw ProbeError("\(name): no CERTIFICATE block in the PEM file") }
        return out
    }
}

extension CertificateFile {
    /// Every certificate of a PEM bundle or DER file as DER, with its subject (a CA file read as a client's
    /// store); throws as `parse` does.
    package static func derCertificates(_ bytes: [UInt8], name: String) throws(ProbeError) -> [(bytes: [UInt8], subject: String)] {
        let parsed = try parse(bytes, name: name)
        defer { parsed.forEach { X509_free($0) } }
        var out: [(bytes: [UInt8], subject: String)] = []
        for x in parsed {
            out.append((try CertificateReader.derBytes(x), CertificateReader.name(X509_get_subject_name(x))))
        }
        return out
    }
}
