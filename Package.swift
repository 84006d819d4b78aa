// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

let package = Package(
    name: "pinguard",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "pinguard", targets: ["pinguard"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // Judgement only, pure Swift: policy model, evaluation, memory rules, metrics and events from results.
        .target(name: "PinGuardCore"),
        // What pinguard writes for people and tools, pure: probe, plan and history reports, lint output and SARIF, text
        // tables, the status page's HTML.
        .target(name: "PinGuardReports", dependencies: ["PinGuardCore"]),
        // The formats pinguard reads: YAML with its budgets (libyaml through Yams), XML (libxml2), property
        // lists, source scanners, importers, native lint readers.
        .target(name: "PinGuardReaders", dependencies: ["PinGuardCore", "CLibXML2", .product(name: "Yams", package: "Yams")]),
        // Every file pinguard is given is read through here: regular files only, never a blocking open.
        .target(name: "PinGuardFiles"),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypt", pkgConfig: "libxcrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libpq, for a state store shared by several instances (Debian's client library for Debian's server).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The memory of served chains: an SQLite file, or a shared PostgreSQL database, behind a small Swift interface.
        .target(name: "PinGuardState", dependencies: ["PinGuardCore", "PinGuardFiles", "CSQLite", "CLibPQ"]),
        // The bundled public suffix list is data under MPL-2.0; see Resources/PUBLIC_SUFFIX_LIST.md. The CT log lists
        // are Apple's and Google's published files; see Resources/CT_LOG_LISTS.md.
        .target(name: "PinGuardConfig", dependencies: ["PinGuardCore", "PinGuardReaders", "PinGuardCrypto", "PinGuardFiles"],
                exclude: ["Resources/PUBLIC_SUFFIX_LIST.md", "Resources/ISSUER_CATALOG.md", "Resources/CT_LOG_LISTS.md",
                          "Resources/CLIENT_TRUST_STORES.md"],
                resources: [.copy("Resources/public_suffix_list.dat"), .copy("Resources/issuer_catalog.json"),
                            .copy("Resources/ct_log_list_apple.json"), .copy("Resources/ct_log_list_chrome.json"),
                            .copy("Resources/ct_log_list_pubkey_chrome.pem"), .copy("Resources/client_trust_stores.json"),
                            .copy("Resources/issuer_catalog_certificates.pem")]),
        // getaddrinfo_a (glibc) in C: its types are behind _GNU_SOURCE, which Swift's Glibc module lacks.
        .target(name: "CResolver", linkerSettings: [.linkedLibrary("anl")]),
        // OpenSSL once, apart from the network: hashes, certificate parsing, chain verification, signatures,
        // PKCS#12 and client identities, hashmod.
        .target(name: "CKeyDecoding", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "PinGuardCrypto", dependencies: ["PinGuardCore", "PinGuardFiles", "COpenSSL", "CKeyDecoding"]),
        // Resolve, dial, handshake -> plain chain facts.
        .target(name: "PinGuardProbe", dependencies: ["PinGuardCore", "PinGuardCrypto", "PinGuardFiles", "COpenSSL", "CResolver"]),
        // The one guarded way pinguard downloads: every resolved address and redirect checked against
        // fetch.networks, sizes capped while streaming, HTTPS verified.
        .target(name: "PinGuardFetch", dependencies: [
            "PinGuardCore", "PinGuardProbe", "PinGuardFiles",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // ACME Renewal Information (RFC 9773): each served leaf's renewal window from its CA, checked on its own
        // schedule through a DocumentFetching; the identifier and window are PinGuardCore/ARI, the JSON PinGuardReaders/ARI.
        .target(name: "PinGuardARI", dependencies: ["PinGuardCore", "PinGuardReaders"]),
        .target(name: "PinGuardDemo", dependencies: ["PinGuardCore", "PinGuardReaders", "PinGuardCrypto", "COpenSSL"]),
        .target(name: "PinGuardService", dependencies: [
            "PinGuardCore", "PinGuardReports", "PinGuardReaders", "PinGuardConfig", "PinGuardCrypto", "PinGuardProbe", "PinGuardFiles", "PinGuardState", "CSystemd", "CCrypt", "CZlib",
            "PinGuardFetch", "PinGuardARI", "PinGuardDemo", "PinGuardCommands",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The commands but serve as library functions: options in, an outcome (stdout, stderr lines, exit status) out.
        // No service, no NIO: the commands that read the state file open it through PinGuardState.
        .target(name: "PinGuardCommands", dependencies: [
            "PinGuardCore", "PinGuardReports", "PinGuardReaders", "PinGuardConfig", "PinGuardCrypto", "PinGuardProbe", "PinGuardFiles", "PinGuardState", "PinGuardARI",
        ]),
        // Argument parsing only: each command maps its flags to one library call (PinGuardCommands, or
        // PinGuardService for serve and probe's downloads).
        .executableTarget(name: "pinguard", dependencies: [
            "PinGuardCommands", "PinGuardCore", "PinGuardReports", "PinGuardReaders", "PinGuardCrypto", "PinGuardService",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "pinguard-bench", dependencies: ["PinGuardCore", "PinGuardReaders", "PinGuardService"]),
        .executableTarget(name: "pinguard-state-bench", dependencies: ["PinGuardCore", "PinGuardState"]),
        .executableTarget(name: "pinguard-cache-bench", dependencies: ["PinGuardProbe", "PinGuardService"]),
        // What each client's own path costs per target: distinct leaves judged for the four bundled stores.
        .executableTarget(name: "pinguard-paths-bench", dependencies: ["PinGuardCore", "PinGuardCrypto", "PinGuardConfig", "PinGuardDemo",
                                                                      "PinGuardProbe", "PinGuardService"]),
        // libFuzzer targets for every reader of untrusted input; built by scripts/fuzz.sh with
        // -sanitize=fuzzer in .build-fuzz, a replay tool (`pinguard-fuzz TARGET FILE...`) otherwise.
        .executableTarget(name: "pinguard-fuzz", dependencies: ["PinGuardCore", "PinGuardReaders", "PinGuardCrypto", "PinGuardConfig"]),
        // The test process installs the built-in key methods before its first test, as the executable does in main.
        .target(name: "PinGuardTestKeyDecoding", dependencies: ["CKeyDecoding"], path: "Tests/PinGuardTestKeyDecoding"),
        .target(name: "PinGuardTestSupport", dependencies: ["PinGuardCore", "PinGuardCrypto", "PinGuardDemo", "PinGuardTestKeyDecoding"],
                path: "Tests/PinGuardTestSupport"),
        // In-memory targets, chains, policies and results: what tests of anything above the core judge.
        .target(name: "PinGuardCoreTestSupport", dependencies: ["PinGuardCore"], path: "Tests/PinGuardCoreTestSupport"),
        // Sample pins and hashes, the committed examples read by path, and imports of text: what the readers' tests and the
        // core's lint and forecast tests over parsed policies share.
        .target(name: "PinGuardReadersTestSupport", dependencies: ["PinGuardCore", "PinGuardReaders"], path: "Tests/PinGuardReadersTestSupport"),
        // Certificate Transparency made in the test: logs, precertificates, SCTs, log lists, serverinfo files.
        .target(name: "PinGuardCTTestSupport", dependencies: ["PinGuardCore", "PinGuardCrypto", "PinGuardDemo", "PinGuardTestSupport", "COpenSSL"],
                path: "Tests/PinGuardCTTestSupport"),
        // Real TLS servers (nginx on loopback) for every leaf of the test PKI, started once per test process, and a
        // prober that trusts them: what the probe's tests and the binary's end-to-end tests share.
        .target(name: "PinGuardProbeTestSupport", dependencies: ["PinGuardCore", "PinGuardCrypto", "PinGuardProbe", "PinGuardTestSupport"],
                path: "Tests/PinGuardProbeTestSupport"),
        // One test target per library target, each depending on what its files import (PinGuardPackageLayoutTests checks
        // both). Fixtures loaded by path are shared, in Tests/Fixtures.
        .testTarget(name: "PinGuardCoreTests", dependencies: ["PinGuardCore", "PinGuardReports", "PinGuardReaders", "PinGuardTestSupport", "PinGuardCoreTestSupport",
                                                              "PinGuardReadersTestSupport"]),
        .testTarget(name: "PinGuardReportsTests", dependencies: ["PinGuardReports", "PinGuardCore", "PinGuardReaders"]),
        .testTarget(name: "PinGuardReadersTests", dependencies: ["PinGuardReaders", "PinGuardCore", "PinGuardReports", "PinGuardTestSupport", "PinGuardCoreTestSupport",
                                                                 "PinGuardReadersTestSupport"]),
        .testTarget(name: "PinGuardFilesTests", dependencies: ["PinGuardFiles", "PinGuardTestSupport"]),
        .testTarget(name: "PinGuardCryptoTests", dependencies: ["PinGuardCrypto", "PinGuardCore", "PinGuardConfig", "PinGuardDemo", "PinGuardProbe",
                                                                "PinGuardTestSupport", "PinGuardTestKeyDecoding", "PinGuardCTTestSupport", "COpenSSL"],
                    exclude: ["Vectors"]),
        .testTarget(name: "PinGuardProbeTests", dependencies: ["PinGuardProbe", "PinGuardCore", "PinGuardReaders", "PinGuardCrypto", "PinGuardDemo",
                                                               "PinGuardTestSupport", "PinGuardCTTestSupport", "PinGuardProbeTestSupport"]),
        .testTarget(name: "PinGuardConfigTests", dependencies: ["PinGuardConfig", "PinGuardCore", "PinGuardReaders", "PinGuardCrypto", "PinGuardTestSupport",
                                                                "PinGuardCTTestSupport"]),
        .testTarget(name: "PinGuardDemoTests", dependencies: ["PinGuardDemo", "PinGuardCrypto"]),
        .testTarget(name: "PinGuardCommandsTests", dependencies: ["PinGuardCommands", "PinGuardCore", "PinGuardReaders", "PinGuardState",
                                                                  "PinGuardARI", "PinGuardCrypto", "PinGuardDemo", "PinGuardTestSupport"]),
        .testTarget(name: "PinGuardStateTests", dependencies: ["PinGuardState", "PinGuardCore", "CSQLite"]),
        // The built pinguard binary end to end: flags, exit statuses, stdout and stderr against real servers.
        .testTarget(name: "PinGuardCLITests", dependencies: ["PinGuardCore", "PinGuardReaders", "PinGuardDemo", "PinGuardTestSupport", "PinGuardCTTestSupport",
                                                             "PinGuardProbeTestSupport", "PinGuardFetchTestSupport"]),
        // The package's shape, read from Package.swift and the sources: layers, imports, one test target per library.
        .testTarget(name: "PinGuardPackageLayoutTests"),
        // A real loopback HTTP/HTTPS server with routes and request counts, for anything that downloads.
        .target(name: "PinGuardFetchTestSupport", dependencies: [
            "PinGuardDemo",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], path: "Tests/PinGuardFetchTestSupport"),
        .testTarget(name: "PinGuardFetchTests", dependencies: [
            "PinGuardFetch", "PinGuardFetchTestSupport", "PinGuardCore", "PinGuardReaders",
        ]),
        .testTarget(name: "PinGuardARITests", dependencies: [
            "PinGuardARI", "PinGuardFetch", "PinGuardFetchTestSupport", "PinGuardCore", "PinGuardDemo",
        ]),
        .target(name: "PinGuardServiceTestSupport", dependencies: [
            "PinGuardService", "PinGuardConfig", "PinGuardCore", "PinGuardReaders", "PinGuardTestSupport",
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ], path: "Tests/PinGuardServiceTestSupport"),
        .testTarget(name: "PinGuardServiceTests", dependencies: [
            "PinGuardService", "PinGuardCommands", "PinGuardReports", "PinGuardConfig", "PinGuardCore", "PinGuardReaders", "PinGuardDemo", "PinGuardProbe", "PinGuardCrypto", "PinGuardTestSupport",
            "PinGuardServiceTestSupport", "PinGuardCoreTestSupport", "PinGuardCTTestSupport", "PinGuardFetch", "PinGuardFetchTestSupport", "PinGuardState",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
