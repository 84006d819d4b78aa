import CSystemd
import Foundation
import NIOConcurrencyHelpers
import PinGuardCore

/// Line-oriented writes to standard error.
enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
