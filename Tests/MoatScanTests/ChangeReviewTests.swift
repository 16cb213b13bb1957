import Foundation
import MoatCore
import Testing
@testable import MoatScan

/// A throwaway git repository with commits made by the test.
struct TemporaryRepository {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("moat-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try git("init", "-q")
    }

    @discardableResult
    func git(_ arguments: String...) throws -> String {
        try Git.run(["-c", "user.name=Moat Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"] + arguments, in: root)
    }

    func write(_ files: [String: String]) throws {
        for (name, content) in files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
    }

    func commit(_ files: [String: String], message: String) throws {
        try write(files)
        try git("add", "-A")
        try git("commit", "-q", "-m", message)
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite struct ChangeSetTests {
    @Test func parsesHunksOfTheNewSide() {
        let diff = """
        diff --git a/Sources/A.swift b/Sources/A.swift
        index 1111111..2222222 100644
        --- a/Sources/A.swift
        +++ b/Sources/A.swift
        @@ -3,0 +4,3 @@ func a() {
        +    let x = 1
        +    let y = 2
        +    let z = 3
        @@ -10 +13 @@ func b() {
        -    old
        +    new
        @@ -20,2 +22,0 @@ func c() {
        -    guard x else { return }
        -    check()
        diff --git a/Gone.swift b/Gone.swift
        deleted file mode 100644
        --- a/Gone.swift
        +++ /dev/null
        @@ -1,2 +0,0 @@
        -a
        -b
        diff --git "a/Caf\\303\\251 Menu.swift" "b/Caf\\303\\251 Menu.swift"
        --- "a/Caf\\303\\251 Menu.swift"
        +++ "b/Caf\\303\\251 Menu.swift"
        @@ -1 +1 @@
        -x
        +y
        diff --git a/../escape.swift b/../escape.swift
        +++ b/../escape.swift
        @@ -1 +1 @@
        Binary files a/icon.png and b/icon.png differ
        """
        let changes = ChangeSet.parse(unifiedDiff: diff)
        #expect(changes.paths == ["Café Menu.swift", "Sources/A.swift"])
        #expect(changes.hunks(in: "Sources/A.swift") == [
            ChangeSet.Hunk(startLine: 4, endLine: 6),
            ChangeSet.Hunk(startLine: 13, endLine: 13),
            ChangeSet.Hunk(startLine: 22, endLine: 23, isDeletion: true),
        ])
        #expect(changes.contains(path: "Sources/A.swift", line: 5))
        #expect(!changes.contains(path: "Sources/A.swift", line: 7))
        #expect(changes.contains(path: "Sources/A.swift", line: 23))
        #expect(changes.hunk(containing: 13, in: "Sources/A.swift")?.lines == "13")
        #expect(changes.hunk(containing: 5, in: "Sources/A.swift")?.lines == "4-6")
        #expect(!changes.contains(path: "Gone.swift", line: 1))
    }

    @Test func malformedHeadersAreIgnored() {
        let diff = "+++ b/A.swift\n@@ -1 +x @@\n@@ garbage\n@@ -1 +99999999999999999999 @@\n@@ -1,2 +5,-3 @@\n@@ -1 +2,2 @@\n"
        #expect(ChangeSet.parse(unifiedDiff: diff).hunks(in: "A.swift") == [ChangeSet.Hunk(startLine: 2, endLine: 3)])
    }
}

@Suite struct ChangeReviewTests {
    static let importBefore = """
    import Foundation

    final class Importer {
    }

    """

    /// Apple's safe idiom: still a "yes" (it writes a path built from outside data), with its checks listed.
    static let importAfter = """
    import Foundation

    final class Importer {
        func handleIncomingFile(_ incomingResourceURL: URL, with name: String, from fromID: String) {
            guard case let safeFileName = name.lastPathComponent,
                  safeFileName.count > 0,
                  safeFileName != "..", safeFileName != "." else { return }
            let destinationFileURL = URL(fileURLWithPath: NSTemporaryDirectory())
                .appendingPathComponent(safeFileName)
            try? FileManager.default.copyItem(at: incomingResourceURL, to: destinationFileURL)
        }
    }

    """

    static let session = """
    final class Sessions {
        var sessionsByIdentifier: [String: Session] = [:]

        func handleSessionInviteAccepted(with message: RemoteMessage, from fromID: String) {
            guard let session = sessionsByIdentifier[message.sessionIdentifier],
                  session.state == .inviting,
                  session.invitedFromIdentifiers.contains(fromID) else { return }
            session.state = .connected
        }

        func refresh() {
            state = .idle
        }
    }

    """

    static let store = """
    import Foundation
    func restore(_ data: Data) -> Any? {
        return NSKeyedUnarchiver.unarchiveObject(with: data)
    }

    """

    static let buffer = """
    import Foundation
    func unpack(_ data: Data, into uuid: inout uuid_t) -> Bool {
        guard data.count == MemoryLayout<uuid_t>.size else { return false }
        data.withUnsafeBytes { raw in
            _ = memcpy(&uuid, raw.baseAddress, data.count)
        }
        // memcpy(dst, src, n) in a comment is not a copy.
        let note = "memcpy(dst, src, n)"
        return true
    }

    """

    static let save = """
    import Foundation
    func save(_ data: Data, named name: String, in folder: URL) throws {
        guard !name.isEmpty else { return }
        try data.write(to: folder.appendingPathComponent(name))
    }

    """

    /// A write to a fixed path: not a path from outside data.
    static let log = """
    import Foundation
    func writeLog(_ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("moat.log"))
    }

    """

    static let old = """
    import UIKit
    let legacy = UIWebView()

    """

    func review(_ repository: TemporaryRepository, base: String = "HEAD~1") throws -> ScanResult {
        var options = ScanOptions(paths: [repository.root.path])
        options.cacheDirectory = nil
        return try ChangeReviewer.review(base: base, options: options).result
    }

    @Test func answersTheFourQuestionsForTheChangedHunks() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["Sources/Import.swift": Self.importBefore, "Sources/Old.swift": Self.old], message: "first")
        try repository.commit(["Sources/Import.swift": Self.importAfter, "Sources/Sessions.swift": Self.session,
                               "Sources/Store.swift": Self.store, "Sources/Buffer.swift": Self.buffer, "Sources/Save.swift": Self.save],
                              message: "second")
        let result = try review(repository)
        let review = try #require(result.changeReview)
        #expect(review.base == "HEAD~1")
        #expect(review.changes.paths == ["Sources/Buffer.swift", "Sources/Import.swift", "Sources/Save.swift", "Sources/Sessions.swift",
                                         "Sources/Store.swift"])
        #expect(review.changes.hunks(in: "Sources/Import.swift") == [ChangeSet.Hunk(startLine: 4, endLine: 11)])

        // Findings: only those on changed lines (Store.swift), not the UIWebView that predates the change.
        #expect(result.findings.map { "\($0.ruleId) \($0.location.path):\($0.location.line)" } == ["MOAT-CODE-001 Sources/Store.swift:3"])
        #expect(review.findingsOutsideChange == 1)

        let answers = Dictionary(uniqueKeysWithValues: review.answers.map { ($0.question, $0) })
        #expect(review.answers.map(\.question) == ThreatQuestion.allCases)

        // 1. File path from outside data (the engine's remote-handler source reaches the write's destination
        //    through `safeFileName`), reduced with lastPathComponent, with the guard's checks listed. The
        //    path builder on line 8 is not a sink: the write on line 10 is the place.
        let path = try #require(answers[.filePath]?.evidence.first { $0.path == "Sources/Import.swift" })
        #expect(answers[.filePath]?.evidence.map(\.hunkDescription) == ["Sources/Import.swift:4-11", "Sources/Save.swift:1-5"])
        #expect(path.sites.map(\.line) == [10])
        #expect(path.sites.first?.reason == "`copyItem(at:to:)` writes to `destinationFileURL`, which comes from `name`, received by handleIncomingFile(_:with:from:) from the remote sender `fromID`; the name is reduced with `lastPathComponent`.")
        #expect(path.checks.contains("line 7: safeFileName != \"..\""))
        #expect(path.checks.contains("line 6: safeFileName.count > 0"))
        // A function's own input reaching a write (its summary: whatever a caller passes).
        let save = try #require(answers[.filePath]?.evidence.first { $0.path == "Sources/Save.swift" })
        #expect(save.sites.map(\.line) == [4])
        #expect(save.sites.first?.reason == "`write(to:)` writes to `folder.appendingPathComponent(name)`, which comes from `folder` and `name`, inputs of `save(_:named:in:)`.")
        #expect(save.checks == ["line 3: !name.isEmpty"])

        // 2. State advanced on a remote message, with the three checks before it; `refresh()` is not remote.
        let state = try #require(answers[.stateMachine]?.evidence.first)
        #expect(answers[.stateMachine]?.evidence.count == 1)
        #expect(state.sites.map(\.line) == [8])
        #expect(state.sites.first?.reason == "sets `session.state` to `.connected` in `handleSessionInviteAccepted(with:from:)`, which handles a remote message (`message`, received by handleSessionInviteAccepted(with:from:) from the remote sender `fromID`).")
        #expect(state.sites.first?.code == "session.state = .connected")
        #expect(state.checks.contains("line 6: session.state == .inviting"))
        #expect(state.checks.contains("line 7: session.invitedFromIdentifiers.contains(fromID)"))

        // 3. Object decoding, backed by the rule's finding on the same line.
        let decoding = try #require(answers[.objectDecoding]?.evidence.first)
        #expect(decoding.hunkDescription.hasPrefix("Sources/Store.swift:1-"))
        #expect(decoding.sites.map(\.line) == [3])
        #expect(decoding.sites.first?.reason == "`unarchiveObject(with:)` decodes whatever classes the archive names.")
        #expect(decoding.ruleIds == ["MOAT-CODE-001"])

        // 4. Memory copied by a length from the input, the length check listed; comments and strings ignored.
        let copy = try #require(answers[.memoryCopy]?.evidence.first)
        #expect(answers[.memoryCopy]?.evidence.count == 1)
        #expect(copy.sites.map(\.line) == [5])
        #expect(copy.sites.first?.reason == "`memcpy` copies `data.count` bytes (the length comes from `data`, an input of `unpack(_:into:)`).")
        #expect(copy.checks == ["line 3: data.count == MemoryLayout<uuid_t>.size"])
    }

    /// The state question asks about the sink table's state changes (`StateTransitions`): a connection
    /// opened and a call named for a transition in a remote handler; a move to a closing state is not one.
    @Test func stateChangesOfTheSinkTableAreAskedAbout() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["Sources/Link.swift": "import Foundation\n"], message: "first")
        try repository.commit(["Sources/Link.swift": """
            import MultipeerConnectivity
            final class Link: NSObject, MCSessionDelegate {
                let machine = Machine()
                func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
                    machine.transition(to: .joined)
                    connect(to: peerID)
                    machine.state = .failed
                }
            }

            """], message: "second")
        let review = try #require(try review(repository).changeReview)
        let state = try #require(review.answers.first { $0.question == .stateMachine }?.evidence.first)
        #expect(state.sites.map(\.line) == [5, 6])
        #expect(state.sites.first?.reason.hasPrefix("calls `transition(to:)` in `session(_:didReceive:fromPeer:)`, which handles a remote message (") == true,
                "\(state.sites)")
        #expect(state.sites.last?.reason.hasPrefix("opens a connection (connect) in `session(_:didReceive:fromPeer:)`") == true, "\(state.sites)")
    }

    @Test func coderDecodesThatNameNoClassSayItInBothLanguages() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["Sources/Note.swift": "import Foundation\n", "Sources/Note.m": "#import <Foundation/Foundation.h>\n"],
                              message: "first")
        try repository.commit(["Sources/Note.swift": """
            import Foundation
            final class Note: NSObject, NSCoding {
                required init?(coder: NSCoder) {
                    let body = try? coder.decodeTopLevelObject(forKey: "body")
                    super.init()
                }
                func encode(with coder: NSCoder) {}
            }

            """, "Sources/Note.m": """
            #import <Foundation/Foundation.h>
            @implementation Note
            - (instancetype)initWithCoder:(NSCoder *)coder {
                id body = [coder decodeTopLevelObjectForKey:@"body" error:nil];
                return self;
            }
            @end

            """], message: "second")
        let review = try #require(try review(repository).changeReview)
        let evidence = review.answers.first { $0.question == .objectDecoding }?.evidence ?? []
        // The calls on line 4; the Swift class's NSCoding adoption (line 2) is the rule's own finding.
        let reasons = evidence.sorted { $0.path < $1.path }.flatMap { $0.sites.map { "\($0.line): \($0.reason)" } }
            .filter { $0.hasPrefix("4: ") }
        #expect(reasons == [
            "4: `decodeTopLevelObjectForKey:error:` decodes an object without naming the class it expects.",
            "4: `decodeTopLevelObject(forKey:)` decodes an object without naming the class it expects.",
        ])
    }

    @Test func unrelatedChangesAnswerNo() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["Sources/Store.swift": Self.store, "Sources/Buffer.swift": Self.buffer], message: "first")
        // Only a comment and an unrelated line change; the risky code is untouched.
        try repository.commit(["Sources/Store.swift": "// Restores sessions.\n" + Self.store,
                               "Sources/Buffer.swift": Self.buffer.replacingOccurrences(of: "return true", with: "return !note.isEmpty"),
                               "Sources/Log.swift": Self.log],
                              message: "second")
        let result = try review(repository)
        let review = try #require(result.changeReview)
        #expect(review.answers.allSatisfy { !$0.isYes }, "\(review.answers.filter(\.isYes).map(\.question))")
        #expect(result.findings.isEmpty)
        #expect(review.findingsOutsideChange == 1)
    }

    @Test func uncommittedEditsCountAndDeletedChecksAreReviewed() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["Sources/Buffer.swift": Self.buffer], message: "first")
        try repository.commit(["README.md": "docs\n"], message: "second")
        // Working-tree edit (not committed): the length check is removed.
        try repository.write(["Sources/Buffer.swift": Self.buffer.replacingOccurrences(
            of: "    guard data.count == MemoryLayout<uuid_t>.size else { return false }\n", with: "")])
        let result = try review(repository, base: "HEAD")
        let review = try #require(result.changeReview)
        #expect(review.changes.hunks(in: "Sources/Buffer.swift") == [ChangeSet.Hunk(startLine: 2, endLine: 3, isDeletion: true)])
        let copy = try #require(review.answers.first { $0.question == .memoryCopy }?.evidence.first)
        #expect(copy.hunkDescription == "Sources/Buffer.swift:2-3")
        #expect(copy.sites.map(\.line) == [4])
        #expect(copy.sites.first?.reason.hasSuffix("Lines were removed before it in the same function (at 2-3): check that no validation was lost.") == true)
        #expect(copy.checks.isEmpty)
    }

    @Test func gitErrorsAndHostileRevisionsAreReported() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["A.swift": "let a = 1\n"], message: "first")
        #expect(throws: ScanError.self) { try review(repository, base: "no-such-revision") }
        #expect(throws: ScanError.self) { try review(repository, base: "--output=/tmp/moat-pwned") }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/moat-pwned"))
        // Outside a repository: an error, not a file-to-file comparison.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("moat-nogit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        #expect(throws: ScanError.self) { try Git.changes(since: "HEAD", path: outside.path) }
    }

    @Test func changedFilesOutsideTheRootAreNeverRead() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.write(["A.swift": "let a = 1\n"])
        #expect(ChangeReviewer.changedSourceFile("A.swift", root: repository.root.path)?.path == "A.swift")
        #expect(ChangeReviewer.changedSourceFile("../A.swift", root: repository.root.path) == nil)
        #expect(ChangeReviewer.changedSourceFile("/etc/passwd.swift", root: repository.root.path) == nil)
        #expect(ChangeReviewer.changedSourceFile("README.md", root: repository.root.path) == nil)
    }
}

/// Objective-C answers, on Apple's own CloudKit unpacking example. Enabled once the C-family front end
/// builds a model (until then `.m` files parse to an empty model and nothing can be answered).
enum ObjectiveCSupport {
    static var isAvailable: Bool {
        guard let tree = try? TemporaryTree(["A.m": "void f(NSData *d) { id o = [NSKeyedUnarchiver unarchiveObjectWithData:d]; }\n"]) else { return false }
        defer { tree.remove() }
        return (try? tree.scan())?.findings.contains { $0.ruleId == "MOAT-CODE-001" } == true
    }
}

@Suite(.enabled(if: ObjectiveCSupport.isAvailable)) struct ObjectiveCReview {
    static let record = """
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

    """

    @Test func memcpyAfterALengthCheckIsAYesWithTheCheckListed() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["TeaClub.m": "@implementation TeaClub\n@end\n"], message: "first")
        try repository.commit(["TeaClub.m": Self.record], message: "second")
        var options = ScanOptions(paths: [repository.root.path])
        options.cacheDirectory = nil
        let review = try #require(try ChangeReviewer.review(base: "HEAD~1", options: options).result.changeReview)
        let copy = try #require(review.answers.first { $0.question == .memoryCopy }?.evidence.first)
        #expect(copy.sites.map(\.line) == [9])
        #expect(copy.sites.first?.reason.hasPrefix("`memcpy` copies `data.length` bytes (the length comes from ") == true)
        #expect(copy.checks == ["line 4: data == nil || ![data isKindOfClass:[NSData class]] || data.length != sizeof(_uuid)"])
        #expect(review.answers.first { $0.question == .filePath }?.isYes == false)
    }

    /// Copies and file calls beyond the FileManager and `memcpy` entries: the sink table's C file calls
    /// (`rename`, `unlink`, `fopen`...) and bounded copies (`strncpy`, `memcpy_s`, `CFDataGetBytes`...).
    static let inbox = """
    @implementation Inbox
    - (void)session:(MCSession *)session didReceiveData:(NSData *)data fromPeer:(MCPeerID *)peerID {
        char name[64];
        size_t length = data.length;
        strncpy(name, data.bytes, length);
        NSString *incoming = [[NSString alloc] initWithData:data encoding:NSUTF8StringEncoding];
        NSString *target = [NSTemporaryDirectory() stringByAppendingPathComponent:incoming];
        rename("/tmp/inbox.partial", target.fileSystemRepresentation);
    }
    @end

    """

    /// A Swift method named like a C function is not that function: `store.rename(item, to:)` is no file call.
    static let renamer = """
    import MultipeerConnectivity
    final class Renamer: NSObject, MCSessionDelegate {
        let store = ItemStore()
        func session(_ session: MCSession, didReceive data: Data, fromPeer peerID: MCPeerID) {
            let name = String(decoding: data, as: UTF8.self)
            store.rename(store.current, to: name)
        }
    }

    """

    @Test func boundedCopiesAndCFileCallsAreAskedAbout() throws {
        let repository = try TemporaryRepository()
        defer { repository.remove() }
        try repository.commit(["Inbox.m": "@implementation Inbox\n@end\n", "Renamer.swift": "import Foundation\n"], message: "first")
        try repository.commit(["Inbox.m": Self.inbox, "Renamer.swift": Self.renamer], message: "second")
        var options = ScanOptions(paths: [repository.root.path])
        options.cacheDirectory = nil
        let result = try ChangeReviewer.review(base: "HEAD~1", options: options).result
        let review = try #require(result.changeReview)
        let copy = try #require(review.answers.first { $0.question == .memoryCopy }?.evidence.first)
        #expect(copy.sites.map(\.line) == [5])
        #expect(copy.sites.first?.reason == "`strncpy` copies `length` bytes (the length comes from the data a nearby peer sent (MCSession didReceive data)).")
        let files = try #require(review.answers.first { $0.question == .filePath }?.evidence)
        #expect(files.map(\.path) == ["Inbox.m"])
        #expect(files.first?.sites.map(\.line) == [8])
        #expect(files.first?.sites.first?.reason == "`rename` writes to `target.fileSystemRepresentation`, which comes from the data a nearby peer sent (MCSession didReceive data).")
        // The rules report both: the copy into the fixed-size buffer, the path.
        #expect(result.findings.map { "\($0.ruleId) \($0.location.path):\($0.location.line)" }.sorted()
                == ["MOAT-CODE-301 Inbox.m:8", "MOAT-CODE-304 Inbox.m:5"])
    }
}
