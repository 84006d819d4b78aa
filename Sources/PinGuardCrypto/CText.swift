import Foundation
import PinGuardCore
#if canImport(Glibc)
import Glibc
#endif

/// A NUL-terminated C buffer as a Swift string.
package func cText(_ buffer: [CChar]) -> String {
    buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
