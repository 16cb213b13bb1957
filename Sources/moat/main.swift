import Foundation

// The CLI: argument parsing and commands only. Exit codes: 0 clean, 1 findings at or above the
// threshold, 2 usage or tool error.
let code = CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(code)
