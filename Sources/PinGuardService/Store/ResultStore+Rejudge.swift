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
        /// Whether the result may stay as it is when its host has the same policy in every edited set (the
        /// target's definition is the same, and host policies are all the reload edited).
        var keepable = false
    }

    /// What every worker of a reload judges by: the new targets by new position, the judgement and what changed.
    struct RejudgeInput: Sendable {
        var targets: [Target]
        var judge: Judge
        var what: Rejudging
        var now: Date
        var detector: EventDetector
        /// The sets the reload edited, for `Rejudge.keepable` results (a reload that edited only host policies:
        /// these are `what.alike`).
        var edited: Set<String> = []
    }

    /// What the judging gave one work item: its events, or that its result was kept as it is.
    struct Outcome {
        var events: [JournalEntry] = []
        var kept = false
    }

    /// Moves each old result (from `old`, by old position) to its new position in `results`, judged again
    /// in place (`Judge.rejudge`; the decisions of the sets in `unchanged` are kept), and its memory
    /// likewise from `oldMemories` to `memories`, after observing the result; returns each work item's
    /// outcome, in work order: its events, or that it was kept as it is (a `keepable` result whose host has
    /// the same policy in every edited set: not judged, not observed). The old slots are left empty. On one
    /// thread per core (at most 4), each taking a contiguous run of the work: judging and detecting are most
    /// of a reload's work and each target's are independent of the others'. Each result and memory is held
    /// once while it is judged, so its arrays are written in place: a reload allocates little that outlives it.
    static func judge(_ work: [Rejudge], _ input: RejudgeInput, old: inout [TargetResult?],
                      oldMemories: inout [EventDetector.TargetMemory], results: inout [TargetResult?],
                      memories: inout [EventDetector.TargetMemory]) -> [Outcome] {
        let workers = work.count > 256 ? min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1
        var outcomes = [Outcome](repeating: Outcome(), count: work.count)
        old.withUnsafeMutableBufferPointer { o in
            oldMemories.withUnsafeMutableBufferPointer { om in
                results.withUnsafeMutableBufferPointer { r in
                    memories.withUnsafeMutableBufferPointer { m in
                        outcomes.withUnsafeMutableBufferPointer { e in
                            // Each worker touches only the slots of its own work items (old and new positions
                            // are each distinct), a contiguous run of them: workers interleaved item by item
                            // would write neighbouring slots, and the cores would pass those cache lines back
                            // and forth.
                            nonisolated(unsafe) let (old, oldMemories, results, memories, outcomes) = (o, om, r, m, e)
                            let run = (work.count + workers - 1) / workers
                            DispatchQueue.concurrentPerform(iterations: workers) { w in
                                // Targets that serve one chain get the same decisions and forecasts: each worker
                                // makes them once (`JudgementMemo`).
                                let memo = JudgementMemo()
                                for i in min(work.count, w * run)..<min(work.count, (w + 1) * run) {
                                    let item = work[i]
                                    guard var result = old[item.previous].take() else { continue }
                                    var memory = oldMemories[item.previous]
                                    oldMemories[item.previous] = EventDetector.TargetMemory()
                                    // The sets a keepable result's host has the same policy in: all of the edited
                                    // ones keep it as it is; else they are what judging again keeps.
                                    let same = item.keepable ? input.judge.samePolicy(result, among: input.what.alike) : nil
                                    if let same, input.edited.isSubset(of: same) {
                                        outcomes[i].kept = true
                                    } else {
                                        input.judge.rejudge(&result, for: input.targets[item.position], input.what, now: input.now,
                                                            memo: memo, samePolicy: same)
                                        outcomes[i].events = input.detector.observe(result, memory: &memory)
                                    }
                                    results[item.position] = consume result
                                    memories[item.position] = consume memory
                                }
                            }
                        }
                    }
                }
            }
        }
        return outcomes
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
