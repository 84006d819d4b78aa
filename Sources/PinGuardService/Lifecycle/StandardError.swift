import CSystemd
import Foundation
import NIOConcurrencyHelpers
import PinGuardCore
import PinGuardReaders

/// Line-oriented writes to standard error.
enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
