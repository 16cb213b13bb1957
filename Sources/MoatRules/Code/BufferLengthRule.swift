import MoatCore
import MoatSyntax

/// WWDC anti-pattern 4: untrusted bytes copied into a fixed-size field without checking that their length
/// matches the field.
public struct BufferLengthRule: SourceRule {
    public static let description = RuleDescription(
        id: "MOAT-CODE-304", slug: "unchecked-buffer-length", title: "Untrusted data copied without a length check",
        severity: .high, confidence: .high, evidence: .dataflow, cwe: [120, 787, 125],
        masvs: ["MASVS-CODE-4"], mastg: ["MASTG-TEST-0086"],
        rationale: "A field of a CloudKit record, a network message or a peer's data has whatever length the sender chose. Copying it into a fixed-size variable with its own length (`memcpy(&_uuid, data.bytes, data.length)`) writes past the variable; copying the variable's size from a shorter buffer reads past the buffer; reading `count` characters from a buffer whose length was never compared with `count` reads past it. Each is memory corruption an attacker controls.",
        fix: "Before the copy, check that the value has the expected type and exactly the destination's size: `if (![data isKindOfClass:[NSData class]] || data.length != sizeof(_uuid)) return NO;` / `guard let data = record[\"uuid\"] as? Data, data.count == MemoryLayout<uuid_t>.size else { return false }`.",
        references: ["https://developer.apple.com/videos/play/wwdc2022/10060/", "https://cwe.mitre.org/data/definitions/120.html"],
        examples: [
            .triggering("TeaClub.m", """
            @implementation TeaClub
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                NSData *data = [record objectForKey:@"uuid"];
                if (data == nil) {
                    return NO;
                }
                ↓memcpy(&_uuid, data.bytes, data.length);
                return YES;
            }
            @end
            """, note: "The WWDC snippet without its type and length check."),
            .triggering("TeaClub.m", """
            @implementation TeaClub
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                NSData *data = [record objectForKey:@"uuid"];
                ↓memcpy(&_uuid, data.bytes, sizeof(_uuid));
                return YES;
            }
            @end
            """, note: "A shorter field is read past its end."),
            .triggering("Snippet.m", """
            @implementation
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                ...
                NSData *data = [record objectForKey:@"uuid"];
                ↓memcpy(&_uuid, data.bytes, data.length);
                ...
            """, note: "The reference fragment, elisions included, without its check."),
            .triggering("TeaClub.swift", """
            import CloudKit
            final class TeaClub {
                var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                func unpackTeaClubRecord(_ record: CKRecord) -> Bool {
                    guard let data = record["uuid"] as? Data else { return false }
                    _ = data.withUnsafeBytes { bytes in
                        ↓memcpy(&uuid, bytes.baseAddress, data.count)
                    }
                    return true
                }
            }
            """),
            .triggering("Peer.swift", """
            import MultipeerConnectivity
            final class Receiver: NSObject, MCSessionDelegate {
                var header = [UInt8](repeating: 0, count: 16)
                func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
                    ↓data.copyBytes(to: &header, count: data.count)
                }
            }
            """),
            .nonTriggering("TeaClub.m", """
            @implementation TeaClub
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                NSData *data = [record objectForKey:@"uuid"];
                if (data == nil ||
                    ![data isKindOfClass:[NSData class]] ||
                    data.length != sizeof(_uuid)) {
                    return NO;
                }
                memcpy(&_uuid, data.bytes, data.length);
                return YES;
            }
            @end
            """, note: "The WWDC snippet as written."),
            .nonTriggering("Snippet.m", """
            @implementation
            - (BOOL)unpackTeaClubRecord:(CKRecord *)record {
                ...
                NSData *data = [record objectForKey:@"uuid"];
                if (data == nil ||
                    ![data isKindOfClass:[NSData class]] ||
                    data.length != sizeof(_uuid)) {
                    return NO;
                }
                memcpy(&_uuid, data.bytes, data.length);
                ...
            """, note: "The reference fragment verbatim."),
            .nonTriggering("TeaClub.swift", """
            import CloudKit
            final class TeaClub {
                var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                func unpackTeaClubRecord(_ record: CKRecord) -> Bool {
                    guard let data = record["uuid"] as? Data, data.count == MemoryLayout<uuid_t>.size else { return false }
                    _ = data.withUnsafeBytes { bytes in
                        memcpy(&uuid, bytes.baseAddress, data.count)
                    }
                    return true
                }
            }
            """),
            .nonTriggering("Peer.swift", """
            import MultipeerConnectivity
            final class Receiver: NSObject, MCSessionDelegate {
                var header = [UInt8](repeating: 0, count: 16)
                func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
                    guard data.count <= header.count else { return }
                    data.copyBytes(to: &header, count: data.count)
                }
            }
            """),
            .triggering("PacketReader.m", """
            typedef struct { uint32_t size; uint32_t length; } PacketHeader;
            @implementation PacketReader
            - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
                const PacketHeader *header = (const PacketHeader *)data.bytes;
                uint8_t *body = malloc(header->size);
                ↓memcpy(body, (const uint8_t *)data.bytes + sizeof(PacketHeader), header->length);
                [self handleBody:body];
            }
            @end
            """, note: "A heap buffer sized by one field of the message, filled with a length from another."),
            .nonTriggering("PacketReader.m", """
            typedef struct { uint32_t size; uint32_t length; } PacketHeader;
            @implementation PacketReader
            - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
                const PacketHeader *header = (const PacketHeader *)data.bytes;
                if (header->length > header->size) {
                    return;
                }
                uint8_t *body = malloc(header->size);
                memcpy(body, (const uint8_t *)data.bytes + sizeof(PacketHeader), header->length);
                [self handleBody:body];
            }
            @end
            """, note: "The length is checked against the allocated size first."),
            .nonTriggering("Copy.m", """
            - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
                void *copy = malloc(data.length);
                memcpy(copy, data.bytes, data.length);
                [self store:copy length:data.length];
            }
            """, note: "A buffer allocated with the data's own length is not fixed-size."),
        ])

    public init() {}

    static let unbounded: Set<TaintCheck> = [.upperBounded, .allowlisted, .validated]
    /// Copies that fill the whole destination from the source (by its size, or to the terminator): a
    /// source shorter than the destination is read past its end.
    static let sourceFillingCopies = Set(APIs.memoryCopyC.cFunctions + APIs.stringCopyC.cFunctions)

    public func check(_ unit: SourceUnit, _ sink: inout FindingSink) {
        let file = unit.code
        var reported = Set<Int>()
        for flow in unit.flows(rule: Self.description.id) {
            guard let (taint, message) = finding(flow, file), reported.insert(flow.range.start.offset).inserted else { continue }
            DataflowReporting.report(message, flow: flow, taint: taint, in: file, confidence: Self.description.confidence, &sink)
        }
    }

    private func finding(_ flow: TaintFlow, _ file: CodeFile) -> (Taint, String)? {
        switch flow.kind {
        case .memoryCopy:
            guard flow.fixedDestination else { return heapSizeMismatch(flow, file) }
            let destination = CodeText.of(flow.arguments[.destination], in: file)
            if let taint = flow.taints(.length).first(where: { $0.checks.isDisjoint(with: Self.unbounded) }), let source = taint.source {
                let length = CodeText.of(flow.arguments[.length], in: file)
                return (taint, "\(flow.calledName) copies `\(length)` bytes, a length set by \(source.description), into the fixed-size `\(destination)`, and nothing checks \(typeAndLength(taint, file)) first: a longer value writes past `\(destination)`.")
            }
            guard flow.taints(.length).isEmpty, Self.sourceFillingCopies.contains(flow.calledName)
                || APIs.rawMemoryCopy.swiftBaseNames.contains(where: flow.calledName.hasPrefix) else { return nil }
            if let taint = flow.taints(.source).first(where: { $0.checks.isDisjoint(with: Self.unbounded.union([.lowerBounded])) }),
               let source = taint.source {
                let buffer = CodeText.of(flow.arguments[.source], in: file)
                if APIs.stringCopyC.cFunctions.contains(flow.calledName) {
                    return (taint, "\(flow.calledName) copies `\(buffer)`, \(source.description), up to its terminating NUL into the fixed-size `\(destination)`, and nothing checks its length first: a longer string writes past `\(destination)`.")
                }
                return (taint, "\(flow.calledName) fills the fixed-size `\(destination)` from `\(buffer)`, \(source.description), and nothing checks that the value is at least that long: a shorter value is read past its end.")
            }
            return nil
        case .stringFromBuffer:
            guard let count = flow.taints(.count).first(where: { $0.checks.isDisjoint(with: Self.unbounded) && $0.product == nil }),
                  let buffer = flow.taints(.buffer).first(where: { $0.checks.isDisjoint(with: Self.unbounded.union([.lowerBounded])) }),
                  let source = buffer.source else { return nil }
            _ = count
            let bufferText = CodeText.of(flow.arguments[.buffer], in: file)
            let countText = CodeText.of(flow.arguments[.count], in: file)
            return (buffer, "\(flow.calledName) reads `\(countText)` characters from `\(bufferText)` (\(source.description)), but nothing compares the buffer's length with the count: a count larger than the data reads past it.")
        default:
            return nil
        }
    }

    /// Allocations whose first argument (or `capacity:`) is the size of the buffer they return: C
    /// `malloc` and its kind, `UnsafeMutablePointer<T>.allocate(capacity:)`, `[NSMutableData dataWithLength:n]`.
    static let allocations: [String: (label: String?, index: Int)] = {
        var result: [String: (label: String?, index: Int)] = [:]
        for name in APIs.allocationC.cFunctions { result[name] = (nil, 0) }
        for selector in APIs.dataWithLength.selectors where selector.hasSuffix("Length:") { result[selector] = (nil, 0) }
        result["allocate"] = ("capacity", 0)
        return result
    }()

    /// A copy into a heap buffer allocated with one size and given an untrusted length that is another
    /// value (`buf = malloc(header->size); memcpy(buf, src, header->length)`), with no check of the length.
    private func heapSizeMismatch(_ flow: TaintFlow, _ file: CodeFile) -> (Taint, String)? {
        guard APIs.memoryCopyC.cFunctions.contains(flow.calledName),
              let destination = flow.arguments[.destination], let length = flow.arguments[.length],
              let taint = flow.taints(.length).first(where: { $0.checks.isDisjoint(with: Self.unbounded) }), let source = taint.source,
              let size = Self.allocationSize(of: destination, in: file, before: flow.range) else { return nil }
        func normalized(_ expression: Expression) -> String {
            file.text(expression.strippedOfCasts.range).filter { !$0.isWhitespace }.replacingOccurrences(of: "->", with: ".")
        }
        let sizeText = normalized(size), lengthText = normalized(length)
        // The same value, or one built from the other (`malloc(n + 1)` for `n` bytes): not a mismatch.
        guard !sizeText.isEmpty, !lengthText.isEmpty, !sizeText.contains(lengthText), !lengthText.contains(sizeText) else { return nil }
        let buffer = CodeText.of(destination, in: file)
        return (taint, "\(flow.calledName) copies `\(CodeText.of(length, in: file))` bytes, a length set by \(source.description), into `\(buffer)`, allocated with `\(CodeText.of(size, in: file))` bytes, and nothing checks the length against that size: a larger length writes past the buffer.")
    }

    /// The size a local buffer was allocated with, when it was allocated in the function of the copy.
    static func allocationSize(of destination: Expression, in file: CodeFile, before range: SourceRange) -> Expression? {
        guard let name = LocalValues.assignableName(destination.strippedOfCasts),
              let (function, owner) = file.allFunctions.filter({ $0.function.range.contains(range) })
                .min(by: { $0.function.range.end.offset - $0.function.range.start.offset < $1.function.range.end.offset - $1.function.range.start.offset })
        else { return nil }
        let values = LocalValues(function: function, type: owner, file: file)
        guard !values.isParameter(name) else { return nil }
        var value = values.value(of: name, before: range.start.offset)?.strippedOfCasts
        // `[data mutableBytes]` / `data.mutableBytes` of a buffer allocated here.
        if let current = value, current.name == "mutableBytes", let base = current.receiver, let inner = LocalValues.assignableName(base.strippedOfCasts) {
            value = values.value(of: inner, before: range.start.offset)?.strippedOfCasts
        }
        guard let call = value, case .call(let callee, let arguments, _) = call.kind, let callName = callee.name,
              let shape = allocations[callName] else { return nil }
        if let label = shape.label { return arguments.first { $0.label == label }?.value }
        return shape.index < arguments.count ? arguments[shape.index].value : nil
    }

    /// "that data is an NSData of exactly the destination's size" or "its length".
    private func typeAndLength(_ taint: Taint, _ file: CodeFile) -> String {
        if file.language.isCFamily, !taint.checks.contains(.typeChecked), taint.checks.contains(.measuredSize) {
            return "that the value is an NSData of exactly that size"
        }
        return "the length against the destination's size"
    }
}
