import ArgumentParser
import Foundation
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe

/// `pinguard pin`: the SPKI and certificate pins of every certificate in files or served by a host.
struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Print SPKI and certificate pins of every certificate, ready to paste into a policy.",
        discussion: """
        SPKI pins are the base64 SHA-256 of the DER SubjectPublicKeyInfo, identical to \
        `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
        """)

    @Argument(help: "PEM bundles or DER certificates.")
    var files: [String] = []

    @Option(help: "Fetch the chain from HOST[:PORT] instead of files.")
    var host: String?

    @Option(help: "Address to dial instead of resolving the host (the first that answers is used).")
    var connect: [String] = []

    @Option(name: .customLong("ca-file"), help: "CA bundle, so that the trust anchor is listed too.")
    var caFile: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if files.isEmpty == (host == nil) { throw ValidationError("give certificate files or --host, not both or neither") }
    }

    func run() throws {
        var groups: [(String, [ChainCertificate])] = []
        if let host {
            let (h, p) = try splitHostPort(host)
            let prober: TLSProber
            do { prober = try TLSProber(caFile: caFile) } catch { printError("pinguard: \(error)"); throw Exit.configuration }
            let facts = prober.probe(ProbeRequest(host: h, port: p, connect: connect, timeout: 10))
            guard facts.success else { printError("pinguard: \(facts.error ?? "no chain")"); throw Exit.rejected }
            groups.append(("\(h):\(p)", facts.evaluatedChain))
        } else {
            for f in files {
                let data = try InputFile.bytes(f, limit: InputFile.certificateLimit)
                do { groups.append((f, try CertificateReader.load(data, file: f))) } catch {
                    printError("pinguard: \(error)"); throw Exit.configuration
                }
            }
        }
        if json {
            let list = groups.flatMap { source, certs in
                certs.map { c -> [String: Any] in
                    ["source": source, "depth": c.depth, "subject": c.subject, "issuer": c.issuer,
                     "key_type": c.keyType, "not_after": RFC3339.format(c.notAfter),
                     "spki_sha256": c.spkiSHA256, "cert_sha256": c.certSHA256, "is_ca": c.isCA]
                }
            }
            let data = try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        for (source, certs) in groups {
            print("# \(source)")
            for c in certs {
                // A CA certificate given on its own (a file holding only it) is still a CA pin.
                let scope = c.isCA ? (c.selfIssued ? "root" : "intermediate") : (c.depth == 0 ? "leaf" : "intermediate")
                print("# depth \(c.depth) (\(scope)): \(c.subject), \(c.keyType), expires \(RFC3339.format(c.notAfter))")
                if scope == "leaf" {
                    print("- {type: spki, hash: \"\(c.spkiSHA256)\", scope: leaf}")
                } else {
                    print("- {type: ca, hash: \"\(c.spkiSHA256)\", scope: \(scope)}")
                }
                print("- {type: certificate, hash: \"\(c.certSHA256)\", scope: \(scope)}")
            }
        }
    }
}
