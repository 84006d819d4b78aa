import COpenSSL

/// OpenSSL's per-thread error queue.
package enum OpenSSLErrorQueue {
    /// Empties the queue so that the next failure reports only its own errors.
    package static func clear() { ERR_clear_error() }

    /// Removes every queued error and joins their texts with `; `.
    package static func drain() -> String { drainCodes().text }

    /// Removes every queued error: their texts joined with `; `, and the number of the TLS alert the peer sent
    /// when one of them is an alert received (library SSL, reason at or above `SSL_AD_REASON_OFFSET`).
    package static func drainCodes() -> (text: String, peerAlert: Int32?) {
        var parts: [String] = []
        var peerAlert: Int32?
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            let reason = pg_ERR_GET_REASON(code)
            if pg_ERR_GET_LIB(code) == ERR_LIB_SSL, reason >= SSL_AD_REASON_OFFSET, peerAlert == nil { peerAlert = reason - SSL_AD_REASON_OFFSET }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = cText(buffer)
            if !parts.contains(text) { parts.append(text) }
        }
        return (parts.joined(separator: "; "), peerAlert)
    }
}
