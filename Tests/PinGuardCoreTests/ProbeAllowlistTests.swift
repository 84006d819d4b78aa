import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// `probe_allow`: the names and addresses `GET /probe` may probe (docs/reference.md, HTTP endpoint).
final class ProbeAllowlistTests: XCTestCase {
    func testNetworksParseAndContainAddresses() throws {
        let n = try XCTUnwrap(IPNetwork("10.1.2.3/8"))
        XCTAssertEqual(n.description, "10.0.0.0/8")
        XCTAssertTrue(n.contains([10, 200, 0, 1]))
        XCTAssertFalse(n.contains([11, 0, 0, 1]))
        let v6 = try XCTUnwrap(IPNetwork("2001:db8::/32"))
        XCTAssertTrue(v6.contains(try XCTUnwrap(IPNetwork.addressBytes("2001:db8:ffff::1"))))
        XCTAssertFalse(v6.contains([10, 0, 0, 1]), "families never mix")
        XCTAssertEqual(IPNetwork("::ffff:192.0.2.1")?.bytes.suffix(4), [192, 0, 2, 1])
        XCTAssertEqual(IPNetwork("192.0.2.7")?.prefix, 32)
        for bad in ["10.0.0.0/33", "10.0.0/8", "1.2.3.4/x", "fe80::1::2", "", "example.com", "10.0.0.0/-1"] {
            XCTAssertNil(IPNetwork(bad), bad)
        }
        XCTAssertTrue(try XCTUnwrap(IPNetwork("127.0.0.0/8")).contains(network: try XCTUnwrap(IPNetwork("127.0.0.2/32"))))
        XCTAssertFalse(try XCTUnwrap(IPNetwork("127.0.0.0/8")).contains(network: try XCTUnwrap(IPNetwork("0.0.0.0/0"))))
    }

    func testGuardedRangesNeedAnExplicitNetwork() throws {
        let open = ProbeAllowlist(hosts: [try HostPattern.parse("**.example.com")])
        XCTAssertTrue(open.permits(address: [203, 0, 113, 7]))
        XCTAssertTrue(open.permits(address: [10, 0, 0, 1]), "private ranges follow networks")
        for guarded in ["127.0.0.1", "169.254.169.254", "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fd00:ec2::254", "::ffff:127.0.0.1"] {
            XCTAssertFalse(open.permits(address: try XCTUnwrap(IPNetwork.addressBytes(guarded))), guarded)
        }
        var loopback = open
        loopback.networks = [try XCTUnwrap(IPNetwork("127.0.0.0/8")), try XCTUnwrap(IPNetwork("::1"))]
        XCTAssertTrue(loopback.permits(address: [127, 0, 0, 2]))
        XCTAssertTrue(loopback.permits(address: try XCTUnwrap(IPNetwork.addressBytes("::1"))))
        XCTAssertFalse(loopback.permits(address: [169, 254, 169, 254]), "listing loopback does not open the metadata address")
        XCTAssertFalse(loopback.permits(address: [203, 0, 113, 7]), "outside every listed network")
    }

    func testHostsArePatterns() throws {
        let allow = ProbeAllowlist(hosts: [try HostPattern.parse("**.example.com"), try HostPattern.parse("api.example.org")])
        XCTAssertTrue(allow.permits(host: "a.b.example.com"))
        XCTAssertTrue(allow.permits(host: "API.example.org."))
        XCTAssertFalse(allow.permits(host: "example.org"))
        XCTAssertFalse(allow.permits(host: "evil.com"))
    }

    func testConfigurationKeys() throws {
        let c = try ServiceConfigParser.parse("probe_allow: {hosts: [\"**.example.com\"], networks: [10.0.0.0/8, \"2001:db8::/32\"]}\n",
                                              file: "c.yml")
        XCTAssertEqual(c.probeAllow?.networks.map(\.description), ["10.0.0.0/8", "2001:db8:0:0:0:0:0:0/32"])
        XCTAssertEqual(try ServiceConfigParser.parse("probe_allow: {hosts: [a.example]}\n", file: "c.yml").probeAllow?.networks,
                       ProbeAllowlist.everyAddress)
        XCTAssertNil(try ServiceConfigParser.parse("listen: \":9477\"\n", file: "c.yml").probeAllow)
        let bad: [(String, String)] = [
            ("probe_allow: {networks: [10.0.0.0/8]}\n", "c.yml:1: probe_allow: probe_allow needs \"hosts\": the name patterns /probe may probe"),
            ("probe_allow: {hosts: [a.example], networks: [10.0.0.0/40]}\n",
             "c.yml:1: probe_allow.networks[0]: \"10.0.0.0/40\" is not an address or network (CIDR)"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try ServiceConfigParser.parse(text, file: "c.yml")) { XCTAssertEqual("\($0)", message) }
        }
    }

    func testHostPortParsing() {
        XCTAssertEqual(try? HostPort.parse("a.example").get().port, 443)
        XCTAssertEqual(try? HostPort.parse("[::1]:8443").get().host, "::1")
        if case .success = HostPort.parse("a.example:99999") { XCTFail("port out of range") }
        if case .success = HostPort.parse("") { XCTFail("empty") }
    }
}

/// The IPv6 forms that carry an IPv4 address, metadata addresses and ports under the default allowlist.
final class ProbeAllowlistEmbeddedAddressTests: XCTestCase {
    private let open = ProbeAllowlist(hosts: [])

    private func bytes(_ text: String) throws -> [UInt8] { try XCTUnwrap(IPNetwork.addressBytes(text), text) }

    func testIPv6FormsOfRefusedIPv4RangesAreRefused() throws {
        for form in ["::127.0.0.1", "::ffff:127.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::a9fe:a9fe", "2002:7f00:1::1",
                     "2002:a9fe:a9fe::", "::169.254.169.254", "64:ff9b::100.100.100.200", "2002:a83f:8110::1"] {
            XCTAssertFalse(open.permits(address: try bytes(form)), form)
        }
        for form in ["64:ff9b::203.0.113.7", "2002:cb00:7107::1", "2001:db8::1", "::203.0.113.7"] {
            XCTAssertTrue(open.permits(address: try bytes(form)), form)
        }
    }

    func testMetadataAddressesNeedAnExplicitNetwork() throws {
        for metadata in ["169.254.169.254", "168.63.129.16", "fd00:ec2::254", "100.100.100.200"] {
            XCTAssertFalse(open.permits(address: try bytes(metadata)), metadata)
            let listed = ProbeAllowlist(hosts: [], networks: [try XCTUnwrap(IPNetwork(metadata))])
            XCTAssertTrue(listed.permits(address: try bytes(metadata)), "\(metadata) listed on its own")
        }
    }

    func testPortsDefaultToHTTPSAndParseAsPortsOrRanges() throws {
        XCTAssertTrue(open.permits(port: 443))
        XCTAssertFalse(open.permits(port: 8443))
        let c = try ServiceConfigParser.parse("probe_allow: {hosts: [a.example], ports: [443, \"8000-8100\"]}\n", file: "c.yml")
        XCTAssertEqual(c.probeAllow?.ports, [443...443, 8000...8100])
        for bad in ["0", "\"9-8\"", "\"1-70000\"", "\"a-b\"", "\"+5-6\""] {
            XCTAssertThrowsError(try ServiceConfigParser.parse("probe_allow: {hosts: [a.example], ports: [\(bad)]}\n", file: "c.yml")) {
                XCTAssertTrue("\($0)".contains("probe_allow.ports[0]"), "\($0)")
            }
        }
    }

    func testHostNamesAndLiteralsAreValidatedByteForByte() {
        XCTAssertEqual(try? HostName.validate("API.Example.com.").get(), "api.example.com")
        XCTAssertEqual(try? HostName.validate("192.0.2.1").get(), "192.0.2.1")
        XCTAssertEqual(try? HostName.validate("2001:DB8::1").get(), "2001:db8::1")
        for bad in ["a\u{0}.example", "a\r.example", "a@b.example", "a#b.example", "a..example", "a.example..", "",
                    "ex\u{E4}mple.com", "1.2.3", "0x7f.1", "999.1.1.1", "fe80::1%eth0", "a/b.example"] {
            if case .success = HostName.validate(bad) { XCTFail("accepted \(bad.debugDescription)") }
        }
    }
}
