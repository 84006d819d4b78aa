import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto

/// One reader of untrusted input, fed arbitrary bytes by libFuzzer (`scripts/fuzz.sh`).
///
/// A reader may reject its input with an error; it must never trap, hang or balloon. For pinguard's
/// own YAML readers the error must also be one line without control characters and of bounded
/// length (the echo rule), so a violation is turned into a crash the fuzzer reports.
enum FuzzTarget: String, CaseIterable {
    case config
    case policy
    case trustkit
    case nspinneddomains
    case androidNSC = "android-nsc"
    case okhttp
    case hpkp
    case pem
    case bundle
    case defines
    case probeTarget = "probe-target"
    case webconfig
    case ctLogList = "ct-log-list"
    case sctList = "sct-list"
    case crl
    case renewalInfo = "renewal-info"
    case caIssuers = "ca-issuers"
    case appManifest = "app-manifest"

    /// The target named by `PINGUARD_FUZZ_TARGET`; libFuzzer runs one target per process.
    static let selected: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["PINGUARD_FUZZ_TARGET"] ?? ""
        guard let t = FuzzTarget(rawValue: name) else {
            fatalError("set PINGUARD_FUZZ_TARGET to one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return t
    }()

    /// Feeds `bytes` to the reader.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .config:
            do {
                _ = try ServiceConfigParser.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.yml")
            } catch {
                Self.checkEcho(error.description)
            }
        case .policy:
            do {
                let set = try PolicyParser.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.yml")
                _ = PolicyLinter.lint([set], now: Date(timeIntervalSince1970: 1_800_000_000),
                                      publicSuffixes: PublicSuffixList(text: "com\nco.uk\n"), expiringWithinDays: 30)
            } catch {
                Self.checkEcho(error.description)
            }
        case .trustkit: importPolicy(.trustkit, bytes)
        case .nspinneddomains: importPolicy(.nspinneddomains, bytes)
        case .androidNSC: importPolicy(.androidNSC, bytes)
        case .okhttp: importPolicy(.okhttp, bytes)
        case .hpkp: importPolicy(.hpkp, bytes)
        case .pem:
            _ = try? CertificateReader.load(bytes, file: "fuzz.pem")
        case .defines, .probeTarget, .webconfig:
            runServiceInput(bytes)
        case .sctList:
            runSCTList(bytes)
        case .crl:
            runCRL(bytes)
        case .ctLogList:
            // Both names: Apple's list is dated from its logs' states when it has no timestamp.
            for name in CTLogListName.allCases {
                do { _ = try CTLogListReader.parse(bytes, name: name, origin: "fuzz.json") } catch { Self.checkEcho(error.description) }
            }
        case .renewalInfo:
            // What an ACME server answers, read both ways: as a directory and as a renewal window.
            do { _ = try RenewalInfoReader.renewalInfoURL(directory: bytes) } catch { Self.checkEcho(error.description) }
            do {
                let w = try RenewalInfoReader.window(bytes)
                if w.start >= w.end { fatalError("accepted a window that ends before it starts") }
            } catch {
                Self.checkEcho(error.description)
            }
        case .caIssuers:
            // A caIssuers response as downloaded (DER, certs-only PKCS#7 or PEM): read as Chrome and Apple read it.
            _ = FetchedIssuers().record("http://fuzz.invalid/ca.cer", body: bytes, at: Date())
        case .appManifest:
            // An app's build file as `import --manifest` reads it: Android's API levels, iOS's deployment target.
            do { _ = try AndroidTargetSDK.read(bytes, file: "fuzz") } catch { Self.checkEcho(error.description) }
            _ = AndroidTargetSDK.readMinimum(bytes)
            do { _ = try AppleDeploymentTarget.read(bytes, file: "fuzz") } catch { Self.checkEcho(error.description) }
        case .bundle:
            // A signed pin bundle as downloaded: the blob, its HMAC check, and the payload decoder (fed even when
            // the signature fails, so the decoder is fuzzed too).
            do {
                let blob = try SignedBlob.parse(bytes)
                do { try BundleSignatureVerifier.verify(blob, hmacSecrets: ["fuzz": Array("fuzz-secret".utf8)], ecdsaKeys: [:]) } catch {
                    Self.checkEcho(error.message)
                }
                _ = try RemoteConfigPayload.policySet(blob.payload, name: "fuzz", environment: "prod")
            } catch {
                Self.checkEcho(error.message)
            }
        }
    }

    /// Imports `bytes`, then lints them as the same native format (`lint` reuses the importer, and adds the
    /// platform guardrails' walks over the parsed document).
    func importPolicy(_ format: PolicyImportFormat, _ bytes: [UInt8]) {
        _ = try? PolicyImporter.importPolicy(format: format, contents: bytes, file: "fuzz", name: "fuzz.example.com",
                                             environment: "prod")
        let lintFormat: LintInputFormat
        switch format {
        case .trustkit:
            // Property lists also get the ATS guardrails; JSON and source (`#import <…>` included) the TrustKit reader.
            let text = String(decoding: bytes.prefix(65_536), as: UTF8.self)
            lintFormat = bytes.starts(with: Array("bplist".utf8)) || bytes.first == UInt8(ascii: "<") || text.contains("<plist")
                ? .plist : .trustkit
        case .nspinneddomains: lintFormat = .plist
        case .androidNSC: lintFormat = .androidNSC
        case .okhttp: lintFormat = .okhttp
        case .hpkp: lintFormat = .hpkp
        }
        _ = try? NativeLinter.lint(bytes, file: "fuzz", format: lintFormat, now: Date(timeIntervalSince1970: 1_800_000_000),
                                   publicSuffixes: PublicSuffixList(text: "com\nco.uk\n"))
    }

    /// The echo rule for errors of pinguard's own readers: one line, no control characters, bounded.
    static func checkEcho(_ message: String) {
        if let bad = message.unicodeScalars.first(where: EchoedInput.isUnsafe) {
            fatalError("error message echoes U+\(String(bad.value, radix: 16)): \(EchoedInput.quoted(message))")
        }
        if message.utf8.count > 4_000 {
            fatalError("error message is \(message.utf8.count) bytes: \(EchoedInput.quoted(message))")
        }
    }
}
