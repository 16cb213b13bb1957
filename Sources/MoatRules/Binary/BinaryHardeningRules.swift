import MoatCore
import MoatFormats

public struct BinaryNotPIERule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-401", slug: "binary-not-pie", title: "Executable built without PIE",
        severity: .medium, confidence: .high, evidence: .configuration, cwe: [693],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0087"],
        rationale: "A position-independent executable (`MH_PIE`) is loaded at a random address, so address space layout randomization covers the app's own code and an exploit cannot rely on fixed addresses. Every current Apple toolchain links iOS executables as PIE; an executable without the flag was built with an obsolete toolchain or `-no_pie`, or was modified after linking. Only executables are judged: libraries and frameworks are always position-independent and do not carry the flag.",
        fix: "Link without `-no_pie` (remove it from Other Linker Flags) with a current Xcode; `Generate Position-Dependent Executable` must be No.",
        references: ["https://developer.apple.com/library/archive/qa/qa1788/_index.html"],
        examples: [
            .triggering("Demo.app/Demo", """
            ↓Mach-O executable arm64 no-pie
            imports: _objc_msgSend _objc_release ___stack_chk_fail
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            imports: _objc_msgSend _objc_release ___stack_chk_fail
            """),
            .nonTriggering("build/libkit.dylib", """
            Mach-O dylib arm64 no-pie
            imports: _objc_msgSend _objc_release ___stack_chk_fail
            """, note: "Dynamic libraries never carry MH_PIE."),
        ])

    public init() {}

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard binary.isExecutable, !binary.image.isPIE else { return }
        sink.report("\(binary.name) is an \(binary.image.architecture) \(binary.kindDescription) without MH_PIE: it always loads at the same address, so ASLR does not protect its code.",
                    in: binary)
    }
}

public struct MissingStackCanariesRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-402", slug: "binary-without-stack-canaries", title: "C or Objective-C code without stack canaries",
        severity: .low, confidence: .low, evidence: .configuration, cwe: [121, 693],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0087"],
        rationale: "With `-fstack-protector` the compiler puts a canary between a function's local buffers and its return address and calls `__stack_chk_fail` when an overflow changed it, turning a stack buffer overflow into a crash instead of code execution. A binary that imports neither `___stack_chk_fail` nor `___stack_chk_guard` has no protected function. Swift code does not use canaries (its arrays and strings are bounds-checked), so a binary with only Swift code is never reported; mixed Swift and Objective-C binaries are judged on their Objective-C part. The compiler only protects functions with local arrays, so a small binary may have none without the option being off: binaries with less than 16 KiB of code are not judged, and the finding has low confidence, medium for a binary of 256 KiB of code or more without Swift.",
        fix: "Build C and Objective-C code with the default stack protection: remove `-fno-stack-protector` from Other C Flags (or use `-fstack-protector-strong`), and rebuild third-party libraries the same way.",
        references: ["https://clang.llvm.org/docs/ClangCommandLineReference.html#cmdoption-clang-fstack-protector"],
        examples: [
            .triggering("Demo.app/Demo", """
            ↓Mach-O executable arm64
            text: 64K
            objc-classes: AppDelegate LBStatementArchive
            imports: _objc_msgSend _objc_release _memcpy
            """),
            .triggering("libparser.dylib", """
            ↓Mach-O dylib arm64
            text: 512K
            imports: _malloc _memcpy _free
            """, note: "A large C library without Swift: medium confidence."),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            objc-classes: AppDelegate LBStatementArchive
            imports: _objc_msgSend _objc_release ___stack_chk_fail ___stack_chk_guard
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64 swift
            text: 300K
            objc-classes: _TtC4Demo11AppDelegate
            imports: _swift_release _swift_retain _objc_msgSend
            """, note: "Swift code does not use stack canaries."),
            .nonTriggering("libtiny.dylib", """
            Mach-O dylib arm64
            text: 4K
            imports: _malloc _free
            """, note: "Too little code to judge."),
        ])

    public init() {}

    /// Less code than this may well have no function with a local buffer.
    static let minimumCodeSize: UInt64 = 16 * 1024
    /// Code larger than this without Swift makes missing canaries likely deliberate.
    static let largeCodeSize: UInt64 = 256 * 1024

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard !binary.imports.usesStackProtector else { return }
        let codeSize = binary.image.section("__text", segment: "__TEXT")?.size ?? 0
        guard codeSize >= Self.minimumCodeSize else { return }
        if binary.containsSwift {
            guard binary.containsObjectiveC else { return }
            sink.report("\(binary.name) imports neither ___stack_chk_fail nor ___stack_chk_guard: the Objective-C part of this Swift and Objective-C \(binary.kindDescription) (classes such as \(binary.objectiveCClassNames.prefix(3).joined(separator: ", "))) has no stack canaries, or none of its functions has a local buffer.",
                        in: binary, confidence: .low)
            return
        }
        let large = codeSize >= Self.largeCodeSize
        sink.report("\(binary.name) imports neither ___stack_chk_fail nor ___stack_chk_guard: its \(binary.containsObjectiveC ? "Objective-C" : "C") code (\(codeSize / 1024) KiB) was built without stack canaries (-fno-stack-protector)\(large ? "" : ", or none of its functions has a local buffer").",
                    in: binary, confidence: large ? .medium : .low)
    }
}

public struct ObjectiveCWithoutARCRule: BinaryRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-403", slug: "objc-binary-without-arc", title: "Objective-C binary without Automatic Reference Counting",
        severity: .low, confidence: .low, evidence: .configuration, cwe: [416, 401],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0087"],
        rationale: "Automatic Reference Counting inserts retains and releases for the programmer; code built with manual reference counting gets them wrong sooner or later, and an over-release is a use-after-free. ARC code imports the runtime's `objc_retain*`, `objc_release*`, `objc_storeStrong` or `objc_autoreleaseReturnValue` entry points. An Objective-C binary (it defines Objective-C classes) that imports none of them was most likely built with `-fno-objc-arc`. Recent compilers turn manual `retain`/`release` messages into the same runtime calls, so manual code can also look like ARC (a miss, never a false report), and binaries with Swift code are not judged because Swift's own retains hide the Objective-C part.",
        fix: "Enable Objective-C Automatic Reference Counting (`CLANG_ENABLE_OBJC_ARC = YES`) and remove `-fno-objc-arc` from per-file compiler flags, converting the code with Edit ▸ Convert ▸ To Objective-C ARC.",
        references: ["https://clang.llvm.org/docs/AutomaticReferenceCounting.html"],
        examples: [
            .triggering("Demo.app/Demo", """
            ↓Mach-O executable arm64
            objc-classes: AppDelegate LBStatementArchive
            imports: _objc_msgSend _objc_autoreleasePoolPush ___stack_chk_fail
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64
            objc-classes: AppDelegate LBStatementArchive
            imports: _objc_msgSend _objc_retainAutoreleasedReturnValue _objc_release_x8 ___stack_chk_fail
            """),
            .nonTriggering("Demo.app/Demo", """
            Mach-O executable arm64 swift
            objc-classes: _TtC4Demo11AppDelegate
            imports: _swift_release _swift_retain _objc_msgSend
            """, note: "Swift code is reference counted by Swift."),
            .nonTriggering("libz.dylib", """
            Mach-O dylib arm64
            imports: _malloc _free ___stack_chk_fail
            """, note: "C code has no Objective-C objects."),
        ])

    public init() {}

    static func isARCEntryPoint(_ name: String) -> Bool {
        name.hasPrefix("_objc_retain") || name.hasPrefix("_objc_release") || name == "_objc_storeStrong"
            || name == "_objc_autoreleaseReturnValue" || name == "_objc_claimAutoreleasedReturnValue"
            || name == "_objc_unsafeClaimAutoreleasedReturnValue" || name == "_objc_storeWeak" || name == "_objc_copyWeak"
    }

    public func check(_ binary: BinaryImage, _ sink: inout FindingSink) {
        guard binary.containsObjectiveC, !binary.containsSwift,
              !binary.imports.symbols.contains(where: { Self.isARCEntryPoint($0.name) }) else { return }
        sink.report("\(binary.name) defines Objective-C classes\(binary.objectiveCClassExamples) but imports no ARC runtime function (objc_retain*, objc_release*, objc_storeStrong): its Objective-C code looks built with manual reference counting.",
                    in: binary)
    }
}
