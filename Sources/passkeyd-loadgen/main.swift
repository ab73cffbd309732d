import Crypto
import Dispatch
import Foundation
import SoftwareClient

// passkeyd-loadgen: many software authenticators driving passkeyd's passkey sign-up and login over HTTP, for
// `make bench` (logins/s, p50/p99) and for the independent token check of `make test` (--once).

func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data("passkeyd-loadgen: \(message)\n".utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(LoadgenSettings.usage)
    exit(0)
}
let settings: LoadgenSettings
do {
    settings = try LoadgenSettings.parse(arguments)
} catch {
    fail("\(error.reason)\n\(LoadgenSettings.usage)")
}
let clients = VirtualClients(settings: settings)
let runID = Base64URL.encode((try? SecureRandom.bytes(count: 6)) ?? [0]).lowercased()

if settings.once {
    let client = clients.makeClient()
    do {
        var (credential, _) = try client.signUp(email: "once-\(runID)@example.com", name: "Once \(runID)")
        var work: UInt64 = 0
        let tokens = try client.logIn(with: &credential, clientWork: &work)
        FileHandle.standardOutput.write(Data(tokens))
        print()
    } catch {
        fail("\(error)", status: 1)
    }
    exit(0)
}

var credentials: [VirtualCredential] = []
var failed = false
if settings.signupCount > 0 {
    let total = settings.signupCount
    let threads = min(settings.concurrency, total)
    let started = DispatchTime.now().uptimeNanoseconds
    let made = clients.run(count: threads) { index -> ([VirtualCredential], [String]) in
        let client = clients.makeClient()
        var mine: [VirtualCredential] = []
        var errors: [String] = []
        for number in stride(from: index, to: total, by: threads) {
            do {
                mine.append(
                    try client.signUp(email: "lg-\(runID)-\(number)@example.com", name: "Load \(number)").credential)
            } catch {
                errors.append("\(error)")
            }
        }
        return (mine, errors)
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    credentials = made.flatMap(\.0)
    let errors = made.flatMap(\.1)
    for error in Set(errors).prefix(3) { FileHandle.standardError.write(Data("passkeyd-loadgen: \(error)\n".utf8)) }
    if let path = settings.credentialsPath {
        do { try CredentialFile.append(credentials, to: path) } catch { fail(error.reason, status: 1) }
    }
    print(
        "{\"mode\":\"signup\",\"users\":\(credentials.count),\"failures\":\(errors.count),\"seconds\":"
            + "\(LoginBenchmark.format(elapsed)),\"signups_per_second\":\(LoginBenchmark.format(Double(credentials.count) / elapsed))}"
    )
    failed = failed || !errors.isEmpty
}

if settings.login {
    if credentials.isEmpty, let path = settings.credentialsPath {
        do { credentials = try CredentialFile.load(path) } catch { fail(error.reason, status: 1) }
    }
    guard !credentials.isEmpty else { fail("--login needs credentials: --signup N or --credentials FILE") }
    let line = LoginBenchmark(clients: clients, credentials: credentials).run()
    print(line)
    failed = failed || !line.contains("\"failures\":0,")
}
exit(failed ? 1 : 0)
