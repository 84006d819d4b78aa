import Foundation
import PinGuardCore
import PinGuardReaders

/// A reload's re-judging: old results moved to their new positions and judged again in place, on every
/// core, and what the reload dropped freed in the background.
extension ResultStore {
    /// One target to judge again on a reload: its position in the new configuration and in the old one.
    struct Rejudge {
        var position: Int
        var previous: Int
    }

    /// What every worker of a reload judges by: the new targets by new position, the judgement and what changed.
    struct RejudgeInput: Sendable {
        var targets: [Target]
        var judge: Judge
        var what: Rejudging
        var now: Date
        var detector: EventDetector
    }

    /// Moves each old result (from `old`, by old position) to its new position in `results`, judged again
    /// in place (`Judge.rejudge`; the decisions of the sets in `unchanged` are kept), and its memory
    /// likewise from `oldMemories` to `memories`, after observing the result; returns the events in work
    /// order. The old slots are left empty. On one thread per core (at most 4), each taking a contiguous run
    /// of the work: judging and detecting are most of a reload's work and each target's are independent of
    /// the others'. Each result and memory is held once while it is judged, so its arrays are written in
    /// place: a reload allocates little that outlives it.
    static func judge(_ work: [Rejudge], _ input: RejudgeInput, old: inout [TargetResult?],
                      oldMemories: inout [EventDetector.TargetMemory], results: inout [TargetResult?],
                      memories: inout [EventDetector.TargetMemory]) -> [JournalEntry] {
        let workers = work.count > 256 ? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1
        var events = [[JournalEntry]](repeating: [], count: work.count)
        old.withUnsafeMutableBufferPointer { o in
            oldMemories.withUnsafeMutableBufferPointer { om in
                results.withUnsafeMutableBufferPointer { r in
                    memories.withUnsafeMutableBufferPointer { m in
                        events.withUnsafeMutableBufferPointer { e in
                            // Each worker touches only the slots of its own work items (old and new positions
                            // are each distinct), a contiguous run of them: workers interleaved item by item
                            // would write neighbouring slots, and the cores would pass those cache lines back
                            // and forth.
                            nonisolated(unsafe) let (old, oldMemories, results, memories, events) = (o, om, r, m, e)
                            let run = (work.count + workers - 1) / workers
                            DispatchQueue.concurrentPerform(iterations: workers) { w in
                                for i in min(work.count, w * run)..<min(work.count, (w + 1) * run) {
                                    let item = work[i]
                                    guard var result = old[item.previous].take() else { continue }
                                    var memory = oldMemories[item.previous]
                                    oldMemories[item.previous] = EventDetector.TargetMemory()
                                    input.judge.rejudge(&result, for: input.targets[item.position], input.what, now: input.now)
                                    events[i] = input.detector.observe(result, memory: &memory)
                                    results[item.position] = consume result
                                    memories[item.position] = consume memory
                                }
                            }
                        }
                    }
                }
            }
        }
        return events.flatMap { $0 }
    }

    /// Frees `garbage` (what a reload left of the old results: those of targets removed or moved to
    /// another endpoint, and the array that held them) and then hands the freed pages back, on a
    /// background thread: releasing 100,000 results (a configuration replaced by a small one) is a tenth
    /// of a reload's work and need not keep it waiting. The box holds the only reference (the caller gives
    /// its own up), so the results are freed inside the block, before the trim, not when the block itself
    /// is destroyed.
    static func release(_ garbage: consuming [TargetResult?]) {
        let box = ReplacedResults(consume garbage)
        DispatchQueue.global(qos: .utility).async {
            box.results = []
            MallocTuning.trim()
        }
    }

    /// The results a reload dropped, on their way to be freed on another thread.
    final class ReplacedResults: @unchecked Sendable {
        /// Written once, by the thread that frees them.
        var results: [TargetResult?]
        init(_ results: consuming [TargetResult?]) { self.results = results }
    }
}
