import COpenSSL

/// The hash of Prometheus' `hashmod` relabel action: the last 8 bytes of the MD5 of the value, big-endian.
public enum HashMod {
    /// `hashmod`'s 64-bit hash of `value` (MD5 through OpenSSL's EVP interface).
    public static func sum64(_ value: String) -> UInt64 {
        var digest = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        let bytes = Array(value.utf8)
        let ok = bytes.withUnsafeBufferPointer { buf in
            EVP_Digest(buf.baseAddress, buf.count, &digest, &length, EVP_md5(), nil)
        }
        guard ok == 1, length == 16 else { return 0 }
        return digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
