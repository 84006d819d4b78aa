import Foundation

/// libFuzzer's entry point: one input per call.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}

#if PINGUARD_FUZZ
/// libFuzzer's driver (LLVM >= 12), linked in by `-sanitize=fuzzer`.
@_extern(c, "LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<Int32>,
                     _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// SwiftPM renames an executable's entry point (`pinguard_fuzz_main`), so libFuzzer's own `main` is
/// never called; this one hands the command line to libFuzzer's driver instead.
@main
struct FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv) { data, size in fuzzTestOneInput(data, size) })
    }
}
#else
/// Without `-sanitize=fuzzer` (a plain `swift build`), the target replays inputs instead:
/// `pinguard-fuzz TARGET FILE...` runs each file through the reader once (crash reproduction).
@main
struct FuzzReplay {
    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        guard let name = args.first, let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("usage: pinguard-fuzz TARGET FILE... (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))\n".utf8))
            exit(2)
        }
        for file in args.dropFirst() {
            guard let data = FileManager.default.contents(atPath: file) else {
                FileHandle.standardError.write(Data("pinguard-fuzz: cannot read \(file)\n".utf8))
                exit(2)
            }
            target.run([UInt8](data))
            print("\(file): ok")
        }
    }
}
#endif
