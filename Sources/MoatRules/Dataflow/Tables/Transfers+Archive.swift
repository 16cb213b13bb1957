import MoatCore
import MoatSyntax

/// Archives (zip-slip, issue 14): libarchive's archive object reads the file name or buffer it is opened on,
/// so it carries their taints, and the entries `archive_read_next_header(a, &entry)` gives carry the
/// archive's (as every `&x` argument receives what goes into the call).
extension Transfers {
    static let archiveCalls: [CallTransfer] = [
        CallTransfer(spelling: APISpelling(APIs.libarchiveReadOpen), effect: .copiesArgument(from: 1, into: 0, arity: 3)),
    ]
}
