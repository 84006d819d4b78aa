import PinGuardCore

/// Checks a binary property list against the importers' budgets before Foundation expands it.
///
/// A binary plist stores each object once and refers to it by index, so one array may name the same
/// array ten times, which names another ten times, …: 300 bytes describe millions of values, and
/// `PropertyListSerialization` builds every one of them. This walk reads only the trailer, the offset table
/// and the container headers, computes for each object how many values it expands to (each object once,
/// memoised, so the time is linear in the file) and how deep it nests, and refuses the file when either is
/// over budget or an object contains itself.
enum BinaryPlistBudget {
    /// What was measured: values after expanding every reference, and the deepest nesting.
    struct Measure: Equatable {
        var nodes: Int
        var depth: Int
    }

    /// Measures `bytes` (a `bplist00` document) and throws a one-line error when it is over budget or malformed.
    static func check(_ bytes: [UInt8], file: String) throws(ImportError) -> Measure {
        func fail(_ message: String) -> ImportError { ImportError(file: file, line: nil, message: "binary property list: " + message) }
        guard bytes.count >= 8 + 32 else { throw fail("too short for a header and trailer") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let refSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else { throw fail("invalid trailer (offset or reference size)") }
        guard let count = bigEndian(bytes, at: trailer + 8, size: 8),
              let top = bigEndian(bytes, at: trailer + 16, size: 8),
              let tableStart = bigEndian(bytes, at: trailer + 24, size: 8) else { throw fail("invalid trailer") }
        // Every object takes at least one byte before the offset table, so the count is bounded by the file.
        guard count >= 1, count <= trailer, top < count, tableStart >= 8,
              tableStart <= trailer, (trailer - tableStart) / offsetSize >= count else {
            throw fail("invalid trailer (object count, top object or offset table out of range)")
        }
        var offsets = [Int](repeating: 0, count: count)
        for k in 0..<count {
            guard let o = bigEndian(bytes, at: tableStart + k * offsetSize, size: offsetSize), o >= 8, o < tableStart else {
                throw fail("object \(k) has an offset outside the object area")
            }
            offsets[k] = o
        }
        // Post-order walk with an explicit stack: 0 unvisited, 1 on the stack (seeing it again is a cycle), 2 done.
        var state = [UInt8](repeating: 0, count: count)
        var nodes = [Int](repeating: 0, count: count)
        var depth = [Int](repeating: 0, count: count)
        var stack: [(object: Int, refs: [Int], next: Int)] = []
        func enter(_ object: Int) throws(ImportError) {
            state[object] = 1
            // Property lists have no sets, and their dictionary keys are strings; Foundation on Linux
            // crashes bridging a set or a container key, so both are refused here, before it sees them.
            let kind = bytes[offsets[object]] >> 4
            if kind == 0xB || kind == 0xC { throw fail("object \(object) is a set, which property lists do not have; refused") }
            guard let refs = references(bytes, at: offsets[object], refSize: refSize, limit: tableStart, objects: count) else {
                throw fail("object \(object) is malformed")
            }
            if kind == 0xD {
                for key in refs.prefix(refs.count / 2) where ![0x5, 0x6].contains(bytes[offsets[key]] >> 4) {
                    throw fail("object \(object) is a dictionary with a key that is not a string; refused")
                }
            }
            stack.append((object, refs, 0))
        }
        try enter(top)
        while let (object, refs, next) = stack.last {
            if next < refs.count {
                stack[stack.count - 1].next += 1
                let child = refs[next]
                if state[child] == 1 { throw fail("object \(child) contains itself (a reference cycle); refused") }
                if state[child] == 0 {
                    guard stack.count < ImportSupport.maxNestingDepth else { throw ImportSupport.tooDeep(file: file, line: nil) }
                    try enter(child)
                }
                continue
            }
            stack.removeLast()
            var total = 1
            var deepest = 0
            for r in refs {
                total = min(total + nodes[r], ImportSupport.maxNodes + 1)
                deepest = max(deepest, depth[r])
            }
            nodes[object] = total
            depth[object] = deepest + 1
            state[object] = 2
            if total > ImportSupport.maxNodes {
                throw fail("expands to more than \(ImportSupport.maxNodes) values (shared objects are counted at every reference); refused")
            }
            if depth[object] > ImportSupport.maxNestingDepth { throw ImportSupport.tooDeep(file: file, line: nil) }
        }
        return Measure(nodes: nodes[top], depth: depth[top])
    }

    /// The objects a container at `offset` refers to (keys and values for a dictionary), `[]` for a scalar,
    /// nil when the object runs past `limit` or refers to an object that does not exist.
    static func references(_ bytes: [UInt8], at offset: Int, refSize: Int, limit: Int, objects: Int) -> [Int]? {
        let marker = bytes[offset]
        let kind = marker >> 4
        guard kind == 0xA || kind == 0xB || kind == 0xC || kind == 0xD else { return [] }
        var length = Int(marker & 0x0F)
        var start = offset + 1
        if length == 0x0F {
            // The length follows as an integer object: marker 0x1n, then 2^n big-endian bytes.
            guard start < limit, bytes[start] >> 4 == 0x1 else { return nil }
            let size = 1 << Int(bytes[start] & 0x0F)
            guard size <= 8, let n = bigEndian(bytes, at: start + 1, size: size) else { return nil }
            length = n
            start += 1 + size
        }
        // A dictionary lists its key references, then its value references.
        guard length <= (limit - start) / refSize else { return nil }
        let refCount = kind == 0xD ? 2 * length : length
        guard refCount <= (limit - start) / refSize else { return nil }
        var refs: [Int] = []
        refs.reserveCapacity(refCount)
        for k in 0..<refCount {
            guard let r = bigEndian(bytes, at: start + k * refSize, size: refSize), r < objects else { return nil }
            refs.append(r)
        }
        return refs
    }

    /// An unsigned big-endian integer of `size` bytes at `offset`, nil when out of range or above `Int.max`.
    static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for k in 0..<size { value = value << 8 | UInt64(bytes[offset + k]) }
        return Int(exactly: value)
    }
}
