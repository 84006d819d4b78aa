import Foundation
import PinGuardConfig
import PinGuardCore
import XCTest

/// `state.url` places the memory in a shared PostgreSQL database: it wins over `$STATE_DIRECTORY`, excludes
/// `state.path`, must be a `postgresql://` URL, and is never shown with its password.
final class SharedStateLocationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pinguard-shared-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func load(_ state: String) throws -> ServiceConfig {
        let file = folder.appendingPathComponent("pinguard.yml")
        try Data((state + "\npolicies: []\njournal: {enabled: false}\ntargets: [{host: api.example.com}]\n").utf8).write(to: file)
        return try ConfigurationLoader.load(path: file.path).config
    }

    private func error(_ state: String) -> String {
        do { _ = try load(state); return "loaded" } catch { return "\(error)" }
    }

    func testAURLPlacesTheMemoryInTheDatabaseWhateverTheStateDirectory() throws {
        let config = try load("state: {url: \"postgresql://pinguard@db.internal:5432/pinguard?sslmode=verify-full\"}")
        let location = StateLocation.resolve(config, environment: ["STATE_DIRECTORY": "/var/lib/pinguard"])
        XCTAssertEqual(location, .database(url: "postgresql://pinguard@db.internal:5432/pinguard?sslmode=verify-full"))
        XCTAssertEqual(location.written, "postgresql://pinguard@db.internal:5432/pinguard?sslmode=verify-full")
        XCTAssertNil(location.serviceHint)
        XCTAssertEqual(location.summary,
                       "served chains are remembered in the shared database postgresql://pinguard@db.internal:5432/pinguard?sslmode=verify-full")
    }

    func testAPasswordIsNeverShown() throws {
        let config = try load("state: {url: \"postgresql://pinguard:s3cret@db:5432/pinguard?password=other&sslmode=require\"}")
        let location = StateLocation.resolve(config, environment: [:])
        XCTAssertEqual(location.written, "postgresql://pinguard@db:5432/pinguard?sslmode=require")
        XCTAssertFalse(location.summary(unavailable: "down").contains("s3cret"))
        XCTAssertEqual(DatabaseURL.redacted("postgres://u:p@h/d?password=x"), "postgres://u@h/d")
        XCTAssertEqual(DatabaseURL.redacted("postgresql://h/d"), "postgresql://h/d")
    }

    func testPathAndURLTogetherAreRefusedNamingBoth() {
        XCTAssertTrue(error("state: {path: state.db, url: \"postgresql://db/pinguard\"}")
            .contains("state.url and state.path both given; keep one (a shared database or a file)"), error("state: {path: state.db, url: \"postgresql://db/pinguard\"}"))
    }

    func testAURLThatIsNotPostgreSQLIsRefusedWithTheFormToUse() {
        for bad in ["mysql://db/pinguard", "postgresql://db/pin guard", "/var/lib/pinguard/state.db"] {
            let message = error("state: {url: \"\(bad)\"}")
            XCTAssertTrue(message.contains("is not a postgresql:// URL (postgresql://USER@HOST:PORT/DATABASE; give the password in ~/.pgpass or PGPASSWORD, not in the file)"),
                          message)
        }
    }
}
