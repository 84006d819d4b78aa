import COpenSSL
import PinGuardCore
import PinGuardCrypto

/// Watches one handshake for a server's request for a client certificate, and answers it with the
/// configured identity, if any.
///
/// OpenSSL calls the certificate callback only when the server sent a CertificateRequest (TLS 1.2 and 1.3),
/// so being called is the proof that the server asked, and the identity reaches the server only then.
final class ClientAuthRecorder {
    private let identity: ClientIdentity?
    private var requested = false
    private var presented = false
    private var error: String?

    init(identity: ClientIdentity?) { self.identity = identity }

    /// Installs the callback on `ssl`; the recorder must outlive the handshake.
    func install(on ssl: OpaquePointer) {
        SSL_set_cert_cb(ssl, { ssl, arg in
            guard let ssl, let arg else { return 1 }
            Unmanaged<ClientAuthRecorder>.fromOpaque(arg).takeUnretainedValue().serverAsked(ssl)
            return 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func serverAsked(_ ssl: OpaquePointer) {
        requested = true
        guard let identity else { return }
        if identity.present(on: ssl) {
            presented = true
        } else {
            // Sending no certificate lets the server decide, as a client whose identity failed would.
            error = ProbeError.openSSL("cannot use the client certificate").message
        }
    }

    /// What the handshake showed.
    var facts: ClientAuthFacts {
        ClientAuthFacts(requested: requested, presented: presented, certificateSubject: identity?.subject,
                        certificateNotAfter: identity?.notAfter, error: error)
    }
}
