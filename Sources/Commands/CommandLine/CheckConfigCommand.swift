import Service

/// `passkeyd check-config`: the configuration is loaded exactly as `serve` loads it (a refusal is `serve`'s one line
/// and status 2, printed by the binary); a configuration that loads is reported valid, after its warnings.
package enum CheckConfigCommand {
    /// What check-config prints for a configuration that loaded from `file`: each warning (standard error), then the
    /// line saying it is valid (standard output). The status is 0: a warning does not stop `serve`.
    package static func report(_ configuration: ServerConfiguration, file: String) -> (
        warnings: [String], valid: String
    ) {
        (configuration.warnings.map { "passkeyd: warning: \($0)" }, "passkeyd: configuration \(file) is valid")
    }
}
