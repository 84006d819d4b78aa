import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders

extension FuzzTarget {
    /// The service's own small readers: `--defines` files, `GET /probe` query strings (decoded once, then the
    /// host checked as the allowlist sees it), and web configuration files.
    func runServiceInput(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        switch self {
        case .defines:
            if case .failure(let error) = DefinesFile.parse(text, file: "fuzz.txt") { Self.checkEcho(error.description) }
        case .probeTarget:
            guard let query = ProbeQuery(uri: "/probe?" + text) else { return }
            guard case .success(let hp) = HostPort.parse(query.target) else { return }
            switch HostName.validate(hp.host) {
            case .success(let name):
                // What is matched is what is dialled: a valid name is plain ASCII host-name bytes or an address.
                if name.utf8.contains(where: { $0 < 0x21 || $0 >= 0x7F || $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "#") }) {
                    fatalError("accepted a host with a forbidden byte: \(EchoedInput.quoted(name))")
                }
            case .failure(let error): Self.checkEcho(error.description)
            }
        case .webconfig:
            do { _ = try WebConfigParser.parse(text, file: "/nonexistent/fuzz-web.yml") } catch { Self.checkEcho(error.description) }
        default:
            return
        }
    }
}
