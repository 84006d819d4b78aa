import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardReaders
import PinGuardCrypto
import PinGuardProbe
import PinGuardService
import PinGuardTestSupport
import XCTest

/// N replicas of one configuration probe disjoint slices that together cover every target, the same
/// slices Prometheus' `hashmod` selects.
final class ShardedConfigurationTests: XCTestCase {
    func testHashIsPrometheusHashmodsMD5() {
        // Last 8 bytes of MD5, big-endian (python3: int.from_bytes(hashlib.md5(v).digest()[8:], "big")).
        XCTAssertEqual(HashMod.sum64("api.example.com:443"), 8_084_163_407_138_269_690)
        XCTAssertEqual(HashMod.sum64("a"), 3_585_878_926_028_121_697)
        XCTAssertEqual(HashMod.sum64("pinguard"), 1_151_053_793_548_194_817)
    }

    private func writeConfig(shard: String? = nil, extra: String = "") throws -> String {
        let dir = try TemporaryDirectory.make("pinguard-shard")
        _ = try PolicyYAML.write(PolicyYAML.policySet(name: "app", rules: [
            HostPolicySpec(pattern: "**.example.com", pins: [.spki(Data(repeating: 1, count: 32).base64EncodedString())]),
        ]), to: dir, as: "policies/app.yml")
        var y = "policies: [\"policies/*.yml\"]\n" + (shard.map { "shard: \($0)\n" } ?? "") + extra + "targets:\n"
        for i in 0..<60 { y += "  - {host: t\(i).example.com}\n" }
        return try PolicyYAML.write(y, to: dir, as: "pinguard.yml")
    }

    func testReplicasSplitTheTargetsAndTheFlagOverridesTheFile() throws {
        let path = try writeConfig(shard: "{index: 2, total: 3}")
        var seen: [String] = []
        for i in 0..<3 {
            let loaded = try ShardedConfigurationLoader(override: TargetShard(index: i, total: 3)).load(path: path)
            XCTAssertEqual(loaded.config.shard, TargetShard(index: i, total: 3))
            for t in loaded.config.targets {
                XCTAssertEqual(HashMod.sum64(t.name) % 3, UInt64(i), t.name)
            }
            seen += loaded.config.targets.map(\.name)
        }
        XCTAssertEqual(seen.count, 60)
        XCTAssertEqual(Set(seen).count, 60, "each target in exactly one shard")

        let fromFile = try ShardedConfigurationLoader(override: nil).load(path: path)
        XCTAssertEqual(fromFile.config.shard, TargetShard(index: 2, total: 3), "without --shard the file's shard applies")
        XCTAssertEqual(fromFile.config.targets.map(\.name),
                       try ShardedConfigurationLoader(override: TargetShard(index: 2, total: 3)).load(path: path).config.targets.map(\.name))
        let unsharded = try ShardedConfigurationLoader(override: nil).load(path: try writeConfig())
        XCTAssertEqual(unsharded.config.targets.count, 60)
    }

    func testTheInstanceLabelsComeFromTheFileAndTheFlagsReplaceThem() throws {
        let path = try writeConfig(shard: "{index: 1, total: 3}", extra: "instance: {replica: a, vantage: eu-west}\n")
        let fromFile = try ShardedConfigurationLoader(override: nil).load(path: path).config
        XCTAssertEqual(fromFile.instance, InstanceLabels(replica: "a", vantage: "eu-west"))
        let flagged = try ShardedConfigurationLoader(override: TargetShard(index: 2, total: 4),
                                                     instance: InstanceLabels(replica: "", vantage: "us-east")).load(path: path).config
        XCTAssertEqual(flagged.instance, InstanceLabels(replica: "a", vantage: "us-east"), "a flag replaces only what it gives")
        let fields = flagged.instance.journalFields(shard: flagged.shard)
        XCTAssertEqual(fields.map(\.0), ["PINGUARD_SHARD", "PINGUARD_REPLICA", "PINGUARD_VANTAGE"])
        XCTAssertEqual(fields.map(\.1), ["2/4", "a", "us-east"])
        XCTAssertTrue(InstanceLabels().journalFields(shard: nil).isEmpty, "nothing said: no fields")
    }

    func testAnInstanceLabelThatIsNotALabelValueIsRefusedWithItsLine() throws {
        let path = try writeConfig(extra: "instance:\n  replica: \"a b\"\n")
        XCTAssertThrowsError(try ShardedConfigurationLoader(override: nil).load(path: path)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("instance.replica \"a b\" is not 1 to 63 letters"), text)
            XCTAssertTrue(text.contains(":3"), "names the line (policies, instance, then replica on line 3): \(text)")
        }
        let r = try runPinguard(args: ["serve", "--config", "/nonexistent.yml", "--vantage", "eu/west"])
        XCTAssertEqual(r.status, 64, "\(r)")
        XCTAssertTrue(r.stderr.contains("--vantage \"eu/west\" is not 1 to 63 letters"), r.stderr)
    }

    func testAShardedInstanceReportsItsIndexAndTotalAndAnUnshardedOneNeither() throws {
        var snapshot = MetricsSnapshot()
        snapshot.shard = TargetShard(index: 2, total: 3)
        let sharded = try Exposition(String(decoding: MetricsRenderer.render(snapshot), as: UTF8.self))
        XCTAssertEqual(sharded.value("pinguard_shard_index"), 2)
        XCTAssertEqual(sharded.value("pinguard_shard_total"), 3)
        let whole = try Exposition(String(decoding: MetricsRenderer.render(MetricsSnapshot()), as: UTF8.self))
        XCTAssertNil(whole.value("pinguard_shard_index"))
        XCTAssertNil(whole.value("pinguard_shard_total"))
    }

    func testABadShardFlagIsAUsageError() throws {
        let r = try runPinguard(args: ["serve", "--config", "/nonexistent.yml", "--shard", "3/3"])
        XCTAssertEqual(r.status, 64, "\(r)")
        XCTAssertTrue(r.stderr.contains("--shard \"3/3\" is not I/N"), r.stderr)
    }
}
