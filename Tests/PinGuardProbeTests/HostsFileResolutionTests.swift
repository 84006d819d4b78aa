import Foundation
import XCTest
@testable import PinGuardProbe
import PinGuardTestSupport

/// Names the hosts file answers are taken from a table kept between lookups; these tests hold it to what
/// glibc's getaddrinfo answers from the same file.
final class HostsFileResolutionTests: XCTestCase {
    /// Lines glibc reads, ignores or splits in ways worth checking.
    static let hosts = """
        127.0.0.1 localhost
        # 127.0.0.5 commented.pinguard.test
        127.0.0.2\tTabbed.Pinguard.Test  alias-one.pinguard.test # trailing comment
        127.0.0.3 tabbed.pinguard.test
        ::1 tabbed.pinguard.test
        ::ffff:127.0.0.9 mapped.pinguard.test
        127.1 short.pinguard.test
        fe80::1%lo scoped.pinguard.test
        127.0.0.4
        127.0.0.6 crlf.pinguard.test\r
        127.0.0.7 dup.pinguard.test dup.pinguard.test
        999.0.0.1 invalid.pinguard.test
        127.0.0.17 a.pinguard.test\u{0} hidden.pinguard.test
        127.0.0.18\u{0}junk nul2.pinguard.test
        127.0.0.19 after\u{0}.pinguard.test

        """

    static let names = ["localhost", "tabbed.pinguard.test", "TABBED.pinguard.test", "alias-one.pinguard.test",
                        "mapped.pinguard.test", "short.pinguard.test", "scoped.pinguard.test", "crlf.pinguard.test",
                        "dup.pinguard.test", "invalid.pinguard.test", "commented.pinguard.test", "absent.pinguard.test",
                        "a.pinguard.test", "hidden.pinguard.test", "nul2.pinguard.test", "after"]

    func testTheTableGivesEachNameTheAddressesGetaddrinfoGivesFromTheSameFile() throws {
        guard let python = CommandRunner.which("python3") else { throw XCTSkip("needs python3 to call getaddrinfo") }
        let dir = try TemporaryDirectory.make("pinguard-hosts")
        let hostsPath = dir.appendingPathComponent("hosts").path
        let resolvPath = dir.appendingPathComponent("resolv.conf").path
        try Self.hosts.write(toFile: hostsPath, atomically: true, encoding: .utf8)
        // No name server answers: a name the file does not give fails at once instead of reaching DNS.
        try "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n".write(toFile: resolvPath, atomically: true, encoding: .utf8)
        let script = """
            import socket, sys
            for n in sys.argv[1:]:
                try:
                    r = socket.getaddrinfo(n, 443, 0, socket.SOCK_STREAM, socket.IPPROTO_TCP)
                    print(n, " ".join(sorted({a[4][0] for a in r})))
                except socket.gaierror:
                    print(n, "-")
            """
        let command: (String, [String])
        do {
            command = try ServeProcess.withPrivateNames([python, "-c", script] + Self.names, hostsFile: hostsPath, resolvConf: resolvPath)
        } catch {
            throw XCTSkip("\(error)")
        }
        let run = try CommandRunner.run(command.0, command.1, timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        let glibc = Dictionary(uniqueKeysWithValues: run.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        })
        let table = HostsTable(Array(Self.hosts.utf8))
        for name in Self.names {
            let ours = table.addresses(of: name).map { entries in
                Set(entries.map { ResolvedAddress(entry: $0, port: 443).description(port: 443) }).map(Self.bare).sorted().joined(separator: " ")
            }
            XCTAssertEqual(ours ?? "-", glibc[name], name)
        }
        XCTAssertNotNil(table.addresses(of: "tabbed.pinguard.test"), "the test has a name the table answers")
        XCTAssertNil(table.addresses(of: "short.pinguard.test"), "glibc ignores a line whose address inet_pton does not read")
        XCTAssertNotNil(table.addresses(of: "a.pinguard.test"), "the part of a line before a NUL is read")
        XCTAssertNil(table.addresses(of: "hidden.pinguard.test"), "glibc never reads past a NUL in a line")
        XCTAssertNil(table.addresses(of: "nul2.pinguard.test"), "a NUL after the address leaves it no name")
    }

    /// `127.0.0.1:443` → `127.0.0.1`, `[::1]:443` → `::1`, as Python prints addresses.
    static func bare(_ endpoint: String) -> String {
        let host = endpoint.prefix(upTo: endpoint.lastIndex(of: ":")!)
        return host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : String(host)
    }

    func testTheHostsFileAnswersOnlyWhenGlibcAsksItFirstAndStopsThere() {
        XCTAssertTrue(NameServiceSwitch.hostsFileFirst("passwd: files\nhosts:          files mdns4_minimal [NOTFOUND=return] dns\n"))
        XCTAssertTrue(NameServiceSwitch.hostsFileFirst("hosts: files dns # comment\n"))
        XCTAssertFalse(NameServiceSwitch.hostsFileFirst("hosts: dns files\n"), "DNS asked first")
        XCTAssertFalse(NameServiceSwitch.hostsFileFirst("passwd: files\n"), "glibc's default asks DNS first")
        XCTAssertFalse(NameServiceSwitch.hostsFileFirst("hosts: files [SUCCESS=continue] dns\n"), "a found name goes on")
        XCTAssertFalse(NameServiceSwitch.hostsFileFirst("hosts: files\nhosts: dns\n"), "two hosts lines")
        XCTAssertFalse(NameServiceSwitch.hostsFileFirst("hosts:files dns\n"), "a spelling this does not read plainly")
    }

    func testAChangedHostsFileIsReadAgainAtTheNextLookup() throws {
        let dir = try TemporaryDirectory.make("pinguard-hosts-cache")
        let hosts = dir.appendingPathComponent("hosts").path
        let nsswitch = dir.appendingPathComponent("nsswitch.conf").path
        try "hosts: files dns\n".write(toFile: nsswitch, atomically: true, encoding: .utf8)
        try "127.0.0.2 one.pinguard.test\n127.0.0.3 pool.pinguard.test\n127.0.0.4 pool.pinguard.test\n"
            .write(toFile: hosts, atomically: true, encoding: .utf8)
        let cache = HostsFileCache(hosts: hosts, nsswitch: nsswitch)
        XCTAssertEqual(cache.addresses(of: "one.pinguard.test", port: 8443, single: false)?.map { $0.description(port: 8443) },
                       ["127.0.0.2:8443"])
        XCTAssertEqual(cache.addresses(of: "pool.pinguard.test", port: 1, single: false)?.count, 2)
        XCTAssertNil(cache.addresses(of: "pool.pinguard.test", port: 1, single: true),
                     "the order of several addresses is getaddrinfo's to decide")
        XCTAssertNil(cache.addresses(of: "absent.pinguard.test", port: 1, single: false))

        try "127.0.0.9 one.pinguard.test\n".write(toFile: hosts, atomically: true, encoding: .utf8)
        XCTAssertEqual(cache.addresses(of: "one.pinguard.test", port: 1, single: false)?.map { $0.description(port: 1) },
                       ["127.0.0.9:1"])
        try "hosts: dns files\n".write(toFile: nsswitch, atomically: true, encoding: .utf8)
        XCTAssertNil(cache.addresses(of: "one.pinguard.test", port: 1, single: false), "DNS is asked first now")
        try FileManager.default.removeItem(atPath: hosts)
        try "hosts: files dns\n".write(toFile: nsswitch, atomically: true, encoding: .utf8)
        XCTAssertNil(cache.addresses(of: "one.pinguard.test", port: 1, single: false), "no hosts file")
    }
}
