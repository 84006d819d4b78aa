import Foundation
import PinGuardTestSupport
import XCTest

/// Reading the rendered exposition back with the parser the service tests scrape /metrics with.
extension MetricsRendererTests {
    /// `text` parsed; nil, and a failed test, when a line is one a scraper would reject.
    func exposition(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Exposition? {
        do {
            return try Exposition(text)
        } catch {
            XCTFail("\(error)", file: file, line: line)
            return nil
        }
    }

    func allSamples(_ text: String) -> [ExpositionSample] { exposition(text)?.samples ?? [] }

    func samples(_ text: String, _ name: String, _ match: [String: String] = [:]) -> [ExpositionSample] {
        exposition(text)?.samples(name, match) ?? []
    }

    func value(_ text: String, _ name: String, _ match: [String: String]) -> Double? { exposition(text)?.value(name, match) }

    func labels(_ text: String, _ name: String, _ label: String) -> [String] {
        samples(text, name).compactMap { $0.labels[label] }
    }
}
