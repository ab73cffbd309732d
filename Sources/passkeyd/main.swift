import Commands
import Foundation

// The passkeyd binary: finds the command its arguments name (`CommandRegistry`), runs it, exits with its status.
let context = CommandContext(environment: ProcessInfo.processInfo.environment, registry: .passkeyd)
exit(await CommandRegistry.passkeyd.run(Array(CommandLine.arguments.dropFirst()), context: context))
