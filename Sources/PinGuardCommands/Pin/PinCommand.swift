import Foundation
import PinGuardCore
import PinGuardCrypto
import PinGuardProbe

/// `pinguard pin`: the SPKI and certificate pins of every certificate in files or served by a host.
public enum PinCommand {
    /// Where the certificates come from.
    public enum Source: Sendable, Equatable {
        /// PEM bundles or DER certificates.
        case files([String])
        /// The chain `host:port` serves, dialled at the first of `connect` that answers (none: `host` resolved).
        case host(String, port: Int, connect: [String])
    }

    /// What `pin` is asked to do.
    public struct Options: Sendable {
        /// Where the certificates come from.
        public var source: Source
        /// A CA bundle for a host's chain, so that the trust anchor is listed too.
        public var caFile: String?
        /// Whether to print JSON instead of policy lines.
        public var json = false

        /// Options pinning what `source` holds.
        public init(source: Source) { self.source = source }
    }

    /// The pins, as policy lines with a comment per certificate (or JSON) on stdout; status 1 when the host
    /// serves no chain, 2 when a file or the CA bundle cannot be read.
    public static func run(_ options: Options) -> CommandOutcome {
        var run = PinRun(options: options)
        return run.outcome()
    }
}

/// One `pin` run and the output it writes.
struct PinRun: CommandRun {
    let options: PinCommand.Options
    var out = CommandOutput()

    init(options: PinCommand.Options) { self.options = options }

    mutating func perform() throws(CommandStop) -> Int32 {
        let groups = try certificates()
        out.write(options.json ? Self.json(groups) : Self.policyLines(groups))
        return CommandStatus.ok
    }

    /// The certificates of each file, or of the chain the host served.
    mutating func certificates() throws(CommandStop) -> [(source: String, certificates: [ChainCertificate])] {
        switch options.source {
        case .host(let host, let port, let connect):
            let prober: TLSProber
            do { prober = try TLSProber(caFile: options.caFile) } catch { throw out.fail("pinguard: \(error)") }
            let facts = prober.probe(ProbeRequest(host: host, port: port, connect: connect, timeout: 10))
            guard facts.success else { throw out.fail("pinguard: \(facts.error ?? "no chain")", status: CommandStatus.rejected) }
            return [("\(host):\(port)", facts.evaluatedChain)]
        case .files(let files):
            var groups: [(source: String, certificates: [ChainCertificate])] = []
            for f in files {
                let data = try InputFile.bytes(f, limit: InputFile.certificateLimit, out: &out)
                do { groups.append((f, try CertificateReader.load(data, file: f))) } catch { throw out.fail("pinguard: \(error)") }
            }
            return groups
        }
    }

    /// One object per certificate, pretty-printed with sorted keys.
    static func json(_ groups: [(source: String, certificates: [ChainCertificate])]) -> String {
        let list = groups.flatMap { source, certs in
            certs.map { c -> [String: Any] in
                ["source": source, "depth": c.depth, "subject": c.subject, "issuer": c.issuer,
                 "key_type": c.keyType, "not_after": RFC3339.format(c.notAfter),
                 "spki_sha256": c.spkiSHA256, "cert_sha256": c.certSHA256, "is_ca": c.isCA]
            }
        }
        // Strings, integers and booleans only: serialization cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Per source a comment line, then per certificate a comment and its pins as policy lines.
    static func policyLines(_ groups: [(source: String, certificates: [ChainCertificate])]) -> String {
        var text = ""
        for (source, certs) in groups {
            text += "# \(source)\n"
            for c in certs {
                // A CA certificate given on its own (a file holding only it) is still a CA pin.
                let scope = c.isCA ? (c.selfIssued ? "root" : "intermediate") : (c.depth == 0 ? "leaf" : "intermediate")
                text += "# depth \(c.depth) (\(scope)): \(c.subject), \(c.keyType), expires \(RFC3339.format(c.notAfter))\n"
                if scope == "leaf" {
                    text += "- {type: spki, hash: \"\(c.spkiSHA256)\", scope: leaf}\n"
                } else {
                    text += "- {type: ca, hash: \"\(c.spkiSHA256)\", scope: \(scope)}\n"
                }
                text += "- {type: certificate, hash: \"\(c.certSHA256)\", scope: \(scope)}\n"
            }
        }
        return text
    }
}
