import COpenSSL

/// OpenSSL's per-thread error queue.
package enum OpenSSLErrorQueue {
    /// Empties the queue so that the next failure reports only its own errors.
    package static func clear() { ERR_clear_error() }

    /// Removes every queued error and joins their texts with `; `.
    package static func drain() -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let text = cText(buffer)
            if !parts.contains(text) { parts.append(text) }
        }
        return parts.joined(separator: "; ")
    }
}
