/// How long a test's HTTP client waits for an answer before it gives up.
///
/// Generous on purpose: a server under test runs its responders on the cooperative pool (two threads here), which
/// the CPU-bound suites running alongside (replaying every recording, RSA keys, openssl child processes) can keep
/// busy for a minute on a loaded machine. A working server always answers well within it; only a test whose server
/// never answers waits it out.
public enum TestTimeout {
    /// Seconds an HTTP client waits for a response.
    public static let responseSeconds = 300
}
