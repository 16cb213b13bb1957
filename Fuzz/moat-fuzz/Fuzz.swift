import Foundation
import MoatScan

/// libFuzzer entry point. The target is chosen with MOAT_FUZZ_TARGET (see Scripts/fuzz.sh).
nonisolated(unsafe) private var selected: (@Sendable (Data) -> Void)?

@_cdecl("LLVMFuzzerTestOneInput")
public func moatFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if selected == nil {
        let name = ProcessInfo.processInfo.environment["MOAT_FUZZ_TARGET"] ?? "plist"
        guard let entry = FuzzEntryPoints.all[name] else {
            fatalError("unknown MOAT_FUZZ_TARGET '\(name)'; known: \(FuzzEntryPoints.names.joined(separator: ", "))")
        }
        selected = entry
    }
    selected?(Data(bytes: bytes, count: size))
    return 0
}
