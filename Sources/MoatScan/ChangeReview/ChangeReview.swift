import Foundation
import MoatCore
import MoatSyntax

/// What `moat diff` found about one change: the hunks, the four threat-model answers, and how many
/// findings were left out because they are not on changed lines.
public struct ChangeReview: Sendable, Codable {
    /// The revision the working tree was compared with.
    public var base: String
    public var changes: ChangeSet
    /// One answer per `ThreatQuestion`, in order.
    public var answers: [ThreatAnswer]
    /// Active findings elsewhere in the scanned code (they predate the change, or are outside its lines).
    public var findingsOutsideChange: Int

    public init(base: String, changes: ChangeSet, answers: [ThreatAnswer], findingsOutsideChange: Int) {
        self.base = base
        self.changes = changes
        self.answers = answers
        self.findingsOutsideChange = findingsOutsideChange
    }

    public var hunkCount: Int { changes.files.values.reduce(0) { $0 + $1.count } }
}

/// `moat diff`: the lines changed since a revision, a full scan (app-wide rules need the whole app), the
/// findings on changed lines only, and the threat-model questions asked of the changed hunks. Changed
/// source files are parsed once more for the questions (the scan may have served them from its cache).
public enum ChangeReviewer {
    public static func review(base: String, options: ScanOptions) throws -> (result: ScanResult, configuration: Configuration) {
        guard options.paths.count == 1, let path = options.paths.first else {
            throw ScanError(path: "diff", message: "moat diff reviews one folder or file at a time")
        }
        let changes = try Git.changes(since: base, path: path)
        return try review(base: base, changes: changes, options: options)
    }

    /// The same review for an already computed change set (tests, other sources of diffs).
    public static func review(base: String, changes: ChangeSet, options: ScanOptions) throws
        -> (result: ScanResult, configuration: Configuration) {
        var (result, configuration) = try Scanner.scan(options)
        var evidence: [ThreatEvidence] = []
        if let root = options.paths.first {
            for path in changes.paths {
                guard let file = changedSourceFile(path, root: root) else { continue }
                if case .success(.code(let code)) = Loader().load(file) {
                    evidence += ThreatModel.evidence(in: code, hunks: changes.hunks(in: path))
                }
            }
        }
        let onChangedLines = result.findings.filter { changes.contains(path: $0.location.path, line: $0.location.line) }
        let outside = result.activeFindings.count - onChangedLines.filter { $0.suppression == nil }.count
        result.findings = onChangedLines
        evidence = ThreatModel.merge(findings: onChangedLines, into: evidence, changes: changes)
        let answers = ThreatQuestion.allCases.map { question in
            ThreatAnswer(question: question, evidence: evidence.filter { $0.question == question })
        }
        result.changeReview = ChangeReview(base: base, changes: changes, answers: answers, findingsOutsideChange: outside)
        return (result, configuration)
    }

    /// A changed Swift or C-family file under the root, refused when its path leaves the root (`..`,
    /// absolute, or a symbolic link pointing outside) or it is not a regular file.
    static func changedSourceFile(_ path: String, root: String) -> DiscoveredFile? {
        guard ChangeSet.isSafeRelativePath(path), let name = path.split(separator: "/").last,
              let kind = Discovery.kind(ofFileNamed: String(name)), kind == .swift || kind == .cFamily else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else { return nil }
        let rootURL = URL(fileURLWithPath: root)
        let folder = isDirectory.boolValue ? rootURL : rootURL.deletingLastPathComponent()
        let realFolder = folder.resolvingSymlinksInPath().standardizedFileURL.path
        let url = folder.appendingPathComponent(path).resolvingSymlinksInPath().standardizedFileURL
        guard url.path.hasPrefix(realFolder.hasSuffix("/") ? realFolder : realFolder + "/"),
              let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
        return DiscoveredFile(url: url, path: path, kind: kind, isTestCode: Discovery.isTestPath(path))
    }
}
