import XCTest
@testable import PinGuardCore
@testable import PinGuardReaders

/// Shards split the targets between replicas: each target in exactly one shard, chosen by a hash of its name.
final class TargetShardTests: XCTestCase {
    func testParsesIOfNAndRefusesTheRest() {
        XCTAssertEqual(TargetShard("0/3"), TargetShard(index: 0, total: 3))
        XCTAssertEqual(TargetShard("2/3")?.description, "2/3")
        for bad in ["3/3", "-1/3", "1/0", "1", "a/b", "1/2/3", "", "/3"] { XCTAssertNil(TargetShard(bad), bad) }
    }

    func testEveryTargetIsInExactlyOneShard() {
        let targets = (0..<500).map { Target(host: "h\($0).example.com") }
        // Any deterministic hash spreads the names; the service uses hashmod's MD5 (HashMod.sum64).
        let hash: (String) -> UInt64 = { name in name.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 } }
        let shards = (0..<3).map { TargetShard(index: $0, total: 3)!.select(targets, hash: hash) }
        XCTAssertEqual(shards.map(\.count).reduce(0, +), targets.count)
        XCTAssertEqual(Set(shards.flatMap { $0.map(\.name) }).count, targets.count, "no target in two shards")
        for s in shards { XCTAssertGreaterThan(s.count, 100, "roughly a third each: \(shards.map(\.count))") }
        XCTAssertEqual(TargetShard(index: 0, total: 1)!.select(targets, hash: hash).count, targets.count)
    }

    func testConfigShardKey() throws {
        let c = try ServiceConfigParser.parse("shard: {index: 1, total: 4}\n", file: "c.yml")
        XCTAssertEqual(c.shard, TargetShard(index: 1, total: 4))
        XCTAssertNil(try ServiceConfigParser.parse("listen: \":9477\"\n", file: "c.yml").shard)
        XCTAssertThrowsError(try ServiceConfigParser.parse("shard: {index: 4, total: 4}\n", file: "c.yml")) { error in
            XCTAssertEqual("\(error)", "c.yml:1: shard.index: shard index 4 is not below total 4 (shards are numbered from 0)")
        }
        XCTAssertThrowsError(try ServiceConfigParser.parse("shard: {index: 0}\n", file: "c.yml")) { error in
            XCTAssertTrue("\(error)".contains("shard needs both \"index\" and \"total\""), "\(error)")
        }
    }
}
