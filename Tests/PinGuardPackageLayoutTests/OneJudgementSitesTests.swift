import Foundation
import XCTest

/// Nothing outside the judgement's own parts builds decisions, CT verdicts or forecasts by hand: the service,
/// `probe`, `plan` and the files judge all go through `Judge`.
final class OneJudgementSitesTests: XCTestCase {
    /// The calls that make a piece of a result.
    static let pieces = ["Evaluator.evaluate(", "TargetResult.evaluate(", "RenewalForecaster.forecast", "CTPolicy.judged(", ".forecast(with:"]
    /// The folders those pieces live in, and the benchmark that times one of them alone.
    static let owners = ["Sources/PinGuardCore/Judgement/", "Sources/PinGuardCore/Evaluation/", "Sources/PinGuardCore/Forecast/",
                         "Sources/PinGuardCore/CT/", "Sources/PinGuardCore/ClientTrust/", "Sources/pinguard-bench/"]

    func testOnlyTheJudgementComposesDecisionsCTVerdictsAndForecasts() throws {
        let root = PackageLayerTests.root
        let files = (FileManager.default.enumerator(atPath: root.appendingPathComponent("Sources").path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }.map { "Sources/\($0)" }
        XCTAssertGreaterThan(files.count, 200)
        for file in files where !Self.owners.contains(where: file.hasPrefix) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for piece in Self.pieces where text.contains(piece) {
                XCTFail("\(file) calls \(piece) itself; judge through Judge")
            }
        }
    }
}
