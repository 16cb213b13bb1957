import MoatCore
import MoatSyntax

/// A call that writes data to a file, in its Swift and Objective-C forms.
struct FileWrite {
    var call: Expression
    /// What is written (the receiver of `write(to:)`, the `contents:` of `createFile`, the archived object).
    var data: Expression
    var destination: Expression?
    /// `Data.WritingOptions` / `NSDataWritingOptions`.
    var options: Expression?
    /// A FileManager attributes dictionary.
    var attributes: Expression?
    var api: String

    /// The APIs `from` reads (`APIs+Files.swift`, `APIs+Storage.swift`).
    static let apis: [API] = [APIs.fileWrite, APIs.fileManagerCreateFile, APIs.keyedArchiverArchiveToFile]
    /// The names of the calls `from` reads (the first part of each selector), for a file's names gate.
    static let names: Set<String> = apis.selectorHeads.union(apis.swiftBaseNames)

    static func from(_ call: Expression) -> FileWrite? {
        guard case .call(let callee, let arguments, let isMessageSend) = call.kind, let name = callee.name,
              let first = arguments.first else { return nil }
        func labeled(_ label: String) -> Expression? { arguments.first { $0.label == label }?.value }
        if isMessageSend {
            switch name {
            case APIs.fileWrite:
                guard let receiver = callee.receiver else { return nil }
                return FileWrite(call: call, data: receiver, destination: first.value, options: labeled("options"),
                                 attributes: nil, api: name)
            case APIs.fileManagerCreateFile:
                guard let contents = labeled("contents") else { return nil }
                return FileWrite(call: call, data: contents, destination: first.value, options: nil,
                                 attributes: labeled("attributes"), api: name)
            case APIs.keyedArchiverArchiveToFile:
                guard callee.receiver?.nameChain.contains(where: APIs.keyedArchiverArchiveToFile.classes.contains) == true else { return nil }
                return FileWrite(call: call, data: first.value, destination: labeled("toFile"), options: nil, attributes: nil, api: name)
            default:
                return nil
            }
        }
        switch name {
        case APIs.fileWrite:
            guard first.label == "to" || first.label == "toFile", let receiver = callee.receiver else { return nil }
            return FileWrite(call: call, data: receiver, destination: first.value, options: labeled("options"), attributes: nil,
                             api: call.swiftCallName ?? "write")
        case APIs.fileManagerCreateFile:
            guard first.label == "atPath", let contents = labeled("contents") else { return nil }
            return FileWrite(call: call, data: contents, destination: first.value, options: nil, attributes: labeled("attributes"),
                             api: APIs.fileManagerCreateFile.swift[0])
        case APIs.keyedArchiverArchiveToFile:
            guard callee.receiver?.nameChain.contains(where: APIs.keyedArchiverArchiveToFile.classes.contains) == true else { return nil }
            return FileWrite(call: call, data: first.value, destination: labeled("toFile"), options: nil, attributes: nil,
                             api: APIs.keyedArchiverArchiveToFile.swift[0])
        default:
            return nil
        }
    }
}

/// Data Protection classes as written in code.
enum FileProtection {
    /// `.noFileProtection`, `NSDataWritingFileProtectionNone`, `FileProtectionType.none`, `NSFileProtectionNone`.
    static func isNone(_ expression: Expression) -> Bool {
        switch expression.strippedOfCasts.kind {
        case .identifier(let name):
            return ["NSDataWritingFileProtectionNone", "NSFileProtectionNone", "NSURLFileProtectionNone"].contains(name)
        case .member(let base, let name):
            if name == "noFileProtection" { return true }
            guard name == "none" else { return false }
            guard let base else { return false }
            return base.nameChain.contains { $0 == "FileProtectionType" || $0 == "URLFileProtection" }
        default:
            return false
        }
    }

    /// `.completeFileProtection(UnlessOpen)`, `FileProtectionType.complete(UnlessOpen)`, `NSFileProtectionComplete`...
    static func isComplete(_ expression: Expression) -> Bool {
        switch expression.strippedOfCasts.kind {
        case .identifier(let name):
            return ["NSDataWritingFileProtectionComplete", "NSDataWritingFileProtectionCompleteUnlessOpen",
                    "NSFileProtectionComplete", "NSFileProtectionCompleteUnlessOpen", "NSURLFileProtectionComplete",
                    "NSURLFileProtectionCompleteUnlessOpen"].contains(name)
        case .member(_, let name):
            return ["completeFileProtection", "completeFileProtectionUnlessOpen", "complete", "completeUnlessOpen"].contains(name)
        default:
            return false
        }
    }

    static let keyNames: Set<String> = ["protectionKey", "NSFileProtectionKey", "NSPersistentStoreFileProtectionKey",
                                        "fileProtectionKey", "NSURLFileProtectionKey"]

    /// Whether any expression in these statements asks for complete protection (write options, attributes,
    /// `setAttributes`, `setResourceValue`).
    static func mentionsComplete(in statements: [Statement]) -> Bool {
        var found = false
        Block(statements: statements, range: SourceRange(start: SourcePosition(line: 1, column: 1, offset: 0),
                                                          end: SourcePosition(line: 1, column: 1, offset: 0))).walk { node, _ in
            guard !found, case .expression(let expression) = node else { return }
            switch expression.kind {
            case .identifier, .member:
                if case .member(_, let name) = expression.kind, name == "complete" || name == "completeUnlessOpen" {
                    // `.complete` alone is too common; require a protection type or key nearby.
                    found = expression.nameChain.contains { $0 == "FileProtectionType" || $0 == "URLFileProtection" }
                } else if isComplete(expression) {
                    found = true
                }
            case .dictionaryLiteral(let pairs):
                if pairs.contains(where: { keyNames.contains(DictionaryEntries.keyName($0.key) ?? "") && isComplete($0.value) }) { found = true }
            default:
                break
            }
        }
        return found
    }
}
