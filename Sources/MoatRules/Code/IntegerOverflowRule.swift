import MoatCore
import MoatSyntax

/// WWDC anti-pattern 5: a count read from untrusted data multiplied by an element size with wrapping
/// arithmetic, then used to allocate, copy or check a length.
public struct IntegerOverflowRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-305", slug: "unchecked-count-multiplication", title: "Untrusted count multiplied without an overflow check",
        severity: .high, confidence: .high, evidence: .dataflow, cwe: [190, 680],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0086"],
        rationale: "`count * sizeof(unichar)` wraps around when the count comes from the data: a huge count gives a small product. A length check against the wrapped product passes, an allocation of the wrapped size is too small, and the code that then trusts `count` reads or writes far past the buffer. Swift's `*` traps on overflow; C's `*` and Swift's `&*` do not.",
        fix: "Multiply with an overflow check and reject the input when it overflows: `if (os_mul_overflow(count, sizeof(unichar), &byteCount) || name.length != byteCount) return NO;` / `let (byteCount, overflow) = count.multipliedReportingOverflow(by: 2); guard !overflow else { return }`. Or bound the count first.",
        references: ["https://developer.apple.com/videos/play/wwdc2022/10060/", "https://cwe.mitre.org/data/definitions/190.html"],
        examples: [
            .triggering("TeaClub.m", """
            @implementation TeaClub
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                NSData *name = [record objectForKey:@"name"];
                int32_t count = [[record objectForKey:@"nameCount"] unsignedIntegerValue];
                if (name == nil ||
                    ![name isKindOfClass:[NSData class]] ||
                    name.length != ↓count * sizeof(unichar)) {
                    return NO;
                }
                _name = [[NSString alloc] initWithCharacters:name.bytes
                                                      length:count];
                return YES;
            }
            @end
            """, note: "The WWDC snippet with a plain multiplication instead of os_mul_overflow."),
            .triggering("Snippet.m", """
            @implementation
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                ...
                NSData *name = [record objectForKey:@"name"];
                int32_t count = [[record objectForKey:@"nameCount"] unsignedIntegerValue];
                if (name == nil ||
                    ![name isKindOfClass:[NSData class]] ||
                    name.length != ↓count * sizeof(unichar)) {
                    return NO;
                }
                _name = [[NSString alloc] initWithCharacters:name.bytes
                                                      length:count];
                ...
            """, note: "The reference fragment, elisions included, with a plain multiplication."),
            .triggering("Packet.c", """
            #include <stdlib.h>
            #include <sys/socket.h>
            void *read_items(int fd) {
                uint32_t count = 0;
                recv(fd, &count, sizeof(count), 0);
                void *items = malloc(↓count * 16);
                recv(fd, items, count * 16, 0);
                return items;
            }
            """),
            .triggering("TeaClub.swift", """
            import CloudKit
            func unpackName(from record: CKRecord) -> String? {
                guard let name = record["name"] as? Data, let count = record["nameCount"] as? Int32 else { return nil }
                let byteCount = ↓count &* Int32(MemoryLayout<unichar>.size)
                guard name.count == Int(byteCount) else { return nil }
                return name.withUnsafeBytes { String(utf16CodeUnits: $0.bindMemory(to: unichar.self).baseAddress!, count: Int(count)) }
            }
            """, note: "`&*` wraps like C's `*`."),
            .nonTriggering("TeaClub.m", """
            @implementation TeaClub
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                NSData *name = [record objectForKey:@"name"];
                int32_t count = [[record objectForKey:@"nameCount"] unsignedIntegerValue];
                int32_t byteCount = 0;
                if (name == nil ||
                    ![name isKindOfClass:[NSData class]] ||
                    os_mul_overflow(count, sizeof(unichar), &byteCount) ||
                    name.length != byteCount) {
                    return NO;
                }
                _name = [[NSString alloc] initWithCharacters:name.bytes
                                                      length:count];
                return YES;
            }
            @end
            """, note: "The WWDC snippet as written."),
            .nonTriggering("Snippet.m", """
            @implementation
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                ...
                NSData *name = [record objectForKey:@"name"];
                int32_t count = [[record objectForKey:@"nameCount"] unsignedIntegerValue];
                int32_t byteCount = 0;
                if (name == nil ||
                    ![name isKindOfClass:[NSData class]] ||
                    os_mul_overflow(count, sizeof(unichar), &byteCount) ||
                    name.length != byteCount) {
                    return NO;
                }
                _name = [[NSString alloc] initWithCharacters:name.bytes
                                                      length:count];
                ...
            """, note: "The reference fragment verbatim."),
            .nonTriggering("TeaClub.swift", """
            import CloudKit
            func unpackName(from record: CKRecord) -> String? {
                guard let name = record["name"] as? Data, let count = record["nameCount"] as? Int32 else { return nil }
                let (byteCount, overflow) = count.multipliedReportingOverflow(by: Int32(MemoryLayout<unichar>.size))
                guard !overflow, name.count == Int(byteCount) else { return nil }
                return name.withUnsafeBytes { String(utf16CodeUnits: $0.bindMemory(to: unichar.self).baseAddress!, count: Int(count)) }
            }
            """),
            .nonTriggering("TeaClub.swift", """
            import CloudKit
            func unpackName(from record: CKRecord) -> String? {
                guard let name = record["name"] as? Data, let count = record["nameCount"] as? Int else { return nil }
                guard name.count == count * MemoryLayout<unichar>.size else { return nil }
                return String(data: name, encoding: .utf16LittleEndian)
            }
            """, note: "Swift's `*` traps on overflow instead of wrapping."),
            .nonTriggering("Packet.c", """
            #include <stdlib.h>
            #include <sys/socket.h>
            void *read_items(int fd) {
                uint32_t count = 0;
                recv(fd, &count, sizeof(count), 0);
                if (count > 4096) {
                    return NULL;
                }
                void *items = malloc(count * 16);
                recv(fd, items, count * 16, 0);
                return items;
            }
            """, note: "A bounded count cannot overflow."),
            .nonTriggering("Thumbnail.m", """
            #include <math.h>
            #include <sys/socket.h>
            BOOL fits_even_height(int fd, CGFloat limit) {
                CGFloat height = 0;
                recv(fd, &height, sizeof(height), 0);
                CGFloat even = floorf(height / 2) * 2;
                if (even != limit) {
                    return NO;
                }
                return YES;
            }
            """, note: "Floating-point arithmetic does not wrap and sizes no allocation."),
        ])

    public init() {}

    static let floatTypes: Set<String> = ["CGFloat", "float", "double", "Float", "Double", "Float32", "Float64",
                                          "NSTimeInterval", "TimeInterval", "CFTimeInterval", "CGFloat_t"]
    static let floatFunctions: Set<String> = ["floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf",
                                              "rint", "rintf", "sqrt", "sqrtf", "fabs", "fabsf", "fmin", "fminf",
                                              "fmax", "fmaxf", "pow", "powf", "rounded"]

    /// A product of floating-point values (`floorf(height / 2) * 2`, a `CGFloat` operand, a float literal)
    /// neither wraps nor sizes an allocation: it saturates to infinity.
    static func isFloatingPoint(_ text: String, in file: CodeFile) -> Bool {
        var tokens: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber || character == "_" || (character == "." && current.first?.isNumber == true) {
                current.append(character)
            } else {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        for token in tokens {
            if token.first?.isNumber == true {
                if token.contains(".") && !token.hasSuffix(".") { return true }
                continue
            }
            if floatFunctions.contains(token) || floatTypes.contains(token) { return true }
            if declaredFloatingPoint(token, in: file.source) { return true }
        }
        return false
    }

    /// `CGFloat height`, `double d`, `height: CGFloat`, `let height = CGFloat(...)` somewhere in the file.
    static func declaredFloatingPoint(_ name: String, in source: String) -> Bool {
        for type in floatTypes {
            for pattern in ["\(type) \(name)", "\(name): \(type)", "\(name) = \(type)("] where containsWord(pattern, in: source) {
                return true
            }
        }
        return false
    }

    static func containsWord(_ pattern: String, in source: String) -> Bool {
        var searchStart = source.startIndex
        while let found = source.range(of: pattern, range: searchStart..<source.endIndex) {
            let before = found.lowerBound == source.startIndex ? nil : source[source.index(before: found.lowerBound)]
            let after = found.upperBound == source.endIndex ? nil : source[found.upperBound]
            let boundary: (Character?) -> Bool = { character in
                guard let character else { return true }
                return !(character.isLetter || character.isNumber || character == "_")
            }
            let endsInName = pattern.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
            if boundary(before) && (!endsInName || boundary(after)) { return true }
            searchStart = found.upperBound
        }
        return false
    }

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        for flow in unit.flows {
            let roles: [SinkRole]
            let use: String
            switch flow.kind {
            case .allocation where flow.calledName == "a length check" || ConditionFacts.comparisonOperators.contains(flow.calledName)
                || flow.calledName == "!==":
                roles = [.size]
                use = "in a length check (`\(file.text(flow.range).prefix(60))`), which a wrapped product passes"
            case .allocation:
                roles = [.size]
                use = "as the size of \(flow.calledName), which then allocates too little"
            case .memoryCopy:
                roles = [.length]
                use = "as the length of \(flow.calledName)"
            case .stringFromBuffer:
                roles = [.count]
                use = "as the count of \(flow.calledName)"
            default:
                continue
            }
            for role in roles {
                for taint in flow.taints(role) {
                    guard let product = taint.product, !product.checked, let source = taint.source,
                          taint.checks.isDisjoint(with: [.allowlisted, .validated]),
                          !Self.isFloatingPoint(file.text(product.range), in: file),
                          reported.insert(product.range.start.offset).inserted else { continue }
                    let text = file.text(product.range)
                    let message = "`\(text)` multiplies a count from \(source.description) without an overflow check, and the product is used \(use). Use os_mul_overflow (or multipliedReportingOverflow) and reject the input when it overflows."
                    DataflowReporting.report(message, flow: flow, taint: taint, at: product.range, in: file,
                                             confidence: Self.description.confidence, &sink)
                }
            }
        }
    }
}
