import Foundation
import PinGuardConfig
import PinGuardCore
import PinGuardTestSupport
import XCTest

/// `serve`, `check-config`, `history` and `plan` find the state file by one function: `state.path` (relative
/// to the configuration's folder), else `$STATE_DIRECTORY/state.db`, else memory only with a hint naming
/// where the shipped unit keeps it.
final class StateLocationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-state-location-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func load(_ yaml: String) throws -> ServiceConfig {
        let file = folder.appendingPathComponent("pinguard.yml")
        try Data(yaml.utf8).write(to: file)
        return try ConfigurationLoader.load(path: file.path).config
    }

    private let oneTarget = "policies: []\njournal: {enabled: false}\ntargets: [{host: api.example.com}]\n"

    func testStatePathWinsOverStateDirectory() throws {
        let config = try load("state: {path: /srv/pinguard/state.db}\n" + oneTarget)
        XCTAssertEqual(StateLocation.resolve(config, environment: ["STATE_DIRECTORY": "/var/lib/pinguard"]),
                       .file("/srv/pinguard/state.db"))
    }

    func testARelativeStatePathIsResolvedAgainstTheConfigurationsFolder() throws {
        let config = try load("state: {path: memory/state.db}\n" + oneTarget)
        XCTAssertEqual(StateLocation.resolve(config, environment: [:]),
                       .file(folder.appendingPathComponent("memory/state.db").path))
    }

    func testStateDirectoryGivesStateDBInItsFirstEntry() throws {
        let config = try load(oneTarget)
        XCTAssertEqual(StateLocation.resolve(config, environment: ["STATE_DIRECTORY": "/var/lib/pinguard"]),
                       .file("/var/lib/pinguard/state.db"))
        XCTAssertEqual(StateLocation.resolve(config, environment: ["STATE_DIRECTORY": "/var/lib/pinguard/"]),
                       .file("/var/lib/pinguard/state.db"))
        XCTAssertEqual(StateLocation.resolve(config, environment: ["STATE_DIRECTORY": "/var/lib/a:/var/lib/b"]),
                       .file("/var/lib/a/state.db"))
        XCTAssertNil(StateLocation.resolve(config, environment: ["STATE_DIRECTORY": "/var/lib/pinguard"]).serviceHint)
    }

    func testWithoutPathOrStateDirectoryTheHintNamesWhereTheServiceKeepsIt() throws {
        let config = try load(oneTarget)
        for environment in [[:], ["STATE_DIRECTORY": ""]] {
            let location = StateLocation.resolve(config, environment: environment)
            XCTAssertEqual(location, .memoryOnly(reason: "no state.path in the configuration and no $STATE_DIRECTORY"))
            let hint = try XCTUnwrap(location.serviceHint)
            XCTAssertTrue(hint.contains("/var/lib/pinguard/state.db"), hint)
            XCTAssertTrue(hint.contains("STATE_DIRECTORY=/var/lib/pinguard"), hint)
        }
    }

    /// The shipped configuration names the unit's state file, so a command run from a shell (which does not
    /// get `$STATE_DIRECTORY`) reads the file the service writes.
    func testTheShippedConfigurationNamesTheUnitsStateFile() throws {
        let shipped = Repository.root.appendingPathComponent("contrib/systemd/pinguard.yml").path
        let config = try ConfigurationLoader.load(path: shipped).config
        let state = "\(StateLocation.serviceStateDirectory)/state.db"
        XCTAssertEqual(StateLocation.resolve(config, environment: [:]), .file(state))
        XCTAssertEqual(StateLocation.resolve(config, environment: ["STATE_DIRECTORY": StateLocation.serviceStateDirectory]),
                       .file(state))
        let unit = try String(contentsOf: Repository.root.appendingPathComponent("contrib/systemd/pinguard.service"), encoding: .utf8)
        XCTAssertTrue(unit.split(separator: "\n").contains("StateDirectory=pinguard"),
                      "the unit's StateDirectory= is the folder the shipped configuration names")
    }
}
