import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardService
import PinGuardTestSupport

/// A `PinGuardRuntime` in the test process: real config and policy files in a temporary folder, a
/// `ManualClock`, and a `ScriptedProbeExecutor` whose hosts serve a one-certificate chain with a key
/// named by the test. No network, no root, no sleeping on the wall clock.
public final class InProcessService: Sendable {
    /// The folder holding `pinguard.yml` and `policies/`.
    public let directory: URL
    /// The test clock.
    public let clock: ManualClock
    /// The scripted prober.
    public let executor: ScriptedProbeExecutor
    /// The runtime under test.
    public let runtime: PinGuardRuntime

    /// The path of `pinguard.yml`.
    public var configPath: String { directory.appendingPathComponent("pinguard.yml").path }

    /// Writes `config` (YAML) and `policies` (file name -> YAML) and starts a runtime on them, downloading with
    /// `fetcher` into `documents` when given.
    public init(config: String, policies: [String: String], loader: (@Sendable (String) throws(ConfigError) -> LoadedConfiguration)? = nil,
                fetcher: (@Sendable (FetchSettings) throws -> any DocumentFetching)? = nil, documents: (any FetchedDocumentStore)? = nil,
                memory: ChainMemory? = nil) throws {
        directory = try TemporaryDirectory.make("pinguard-inprocess")
        clock = ManualClock()
        executor = ScriptedProbeExecutor(clock: clock)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("policies"), withIntermediateDirectories: true)
        for (name, text) in policies { try Self.write(text, to: directory.appendingPathComponent("policies/\(name)")) }
        try Self.write(config, to: directory.appendingPathComponent("pinguard.yml"))
        let loaded = try ConfigurationLoader.load(path: directory.appendingPathComponent("pinguard.yml").path)
        if let loader {
            runtime = try PinGuardRuntime(loaded: loaded, journal: JournalSink(enabled: false), clock: clock, executor: executor,
                                          memory: memory, fetcher: fetcher, documents: documents, loader: loader)
        } else {
            runtime = try PinGuardRuntime(loaded: loaded, journal: JournalSink(enabled: false), clock: clock, executor: executor,
                                          memory: memory, fetcher: fetcher, documents: documents)
        }
    }

    /// Replaces a file of the service's folder (`pinguard.yml` or `policies/NAME`).
    public func rewrite(_ relative: String, _ text: String) throws {
        try Self.write(text, to: directory.appendingPathComponent(relative))
    }

    /// Makes `host` serve a trusted one-certificate chain whose key hashes to `pin`, valid for `days` more days.
    public func serve(_ host: String, key pin: String, days: Double = 90) {
        let leaf = ChainCertificate(depth: 0, subject: "CN=\(host)", issuer: "CN=Test CA", serial: "01",
                                    notBefore: clock.now.addingTimeInterval(-86_400), notAfter: clock.now.addingTimeInterval(days * 86_400),
                                    spkiSHA256: pin, certSHA256: Self.pin(byte: 0xEE))
        executor.answer(host, with: ProbeFacts(host: host, port: 443, duration: 0.01, tlsVersion: "TLSv1.3", servedChain: [leaf],
                                               verifiedChain: [leaf], trusted: true, finishedAt: clock.now))
    }

    /// A well-formed pin: base64 of 32 bytes of `byte`.
    public static func pin(byte: UInt8) -> String { Data(repeating: byte, count: 32).base64EncodedString() }

    /// A policy file pinning `pins` (primary first) for `pattern`.
    public static func policy(name: String, pattern: String, pins: [String]) -> String {
        var y = "name: \(name)\nenvironments:\n  prod:\n    policies:\n      - pattern: \"\(pattern)\"\n        policy:\n          pins:\n"
        for (i, p) in pins.enumerated() { y += "            - {type: spki, hash: \"\(p)\", role: \(i == 0 ? "primary" : "backup")}\n" }
        return y
    }

    /// A config probing `hosts` (target name = host) every `interval`, `concurrency` at a time.
    public static func config(hosts: [String], interval: String = "60s", concurrency: Int = 4, port: Int = 443) -> String {
        var y = "listen: \"127.0.0.1:0\"\ninterval: \(interval)\ntimeout: 5s\nconcurrency: \(concurrency)\npolicies: [\"policies/*.yml\"]\njournal: {enabled: false}\ntargets:\n"
        for h in hosts { y += "  - {host: \(h), port: \(port), name: \(h)}\n" }
        return y
    }

    private static func write(_ text: String, to url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
}
