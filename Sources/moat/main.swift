import Foundation
import MoatScan

// The CLI: argument parsing and commands only. Exit codes: 0 clean, 1 findings at or above the
// threshold, 2 usage or tool error.
let code = CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
if let profile = RuleProfile.shared {
    FileHandle.standardError.write(Data(("Time per source rule:\n" + profile.report()).utf8))
}
exit(code)
