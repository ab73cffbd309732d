import Glibc
import Testing

@testable import HTTP

@Suite("DescriptorBudget: RLIMIT_NOFILE and the connection limit")
struct DescriptorBudgetTests {
    static func limits() -> rlimit {
        var limits = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
        return limits
    }

    @Test("each connection and its draining close need a descriptor, plus the server's own")
    func needed() {
        let configuration = HTTPServer.Configuration(connectionLimit: 4_096, threads: 2)
        #expect(DescriptorBudget.needed(by: configuration) == 2 * 4_096 + 2 * 2 + DescriptorBudget.overhead)
    }

    @Test("the soft limit is kept when it covers the need, raised when the hard limit allows, else refused")
    func softLimit() {
        let unlimited = DescriptorBudget.unlimited
        #expect(DescriptorBudget.softLimit(covering: 900, soft: 1_024, hard: 4_096) == 1_024)
        #expect(DescriptorBudget.softLimit(covering: 3_000, soft: 1_024, hard: 4_096) == 3_000)
        #expect(DescriptorBudget.softLimit(covering: 3_000, soft: 1_024, hard: unlimited) == 3_000)
        #expect(DescriptorBudget.softLimit(covering: 3_000, soft: unlimited, hard: unlimited) == unlimited)
        #expect(DescriptorBudget.softLimit(covering: 5_000, soft: 1_024, hard: 4_096) == nil)
    }

    @Test(
        "start raises a soft limit too low for the connection limit",
        .enabled(if: limits().rlim_max == DescriptorBudget.unlimited || limits().rlim_max >= 12_000))
    func raises() async throws {
        let original = Self.limits()
        defer {
            // Never left below where it was: other suites of this process start servers too.
            var restored = Self.limits()
            restored.rlim_cur = max(restored.rlim_cur, original.rlim_cur)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &restored)
        }
        var lowered = original
        lowered.rlim_cur = 4_096  // below the 8,260 descriptors 4,096 connections need
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &lowered)
        let configuration = HTTPServer.Configuration(port: 0, connectionLimit: 4_096, threads: 2)
        try await HTTPServerTests.withServer(configuration) { _, _ in
            #expect(Self.limits().rlim_cur >= rlim_t(DescriptorBudget.needed(by: configuration)))
        }
    }

    @Test(
        "a connection limit the hard limit cannot cover refuses the start, naming both",
        .enabled(if: limits().rlim_max != DescriptorBudget.unlimited))
    func refused() async throws {
        let hard = Int(Self.limits().rlim_max)
        let server = HTTPServer(
            configuration: .init(port: 0, connectionLimit: hard, logsLibraryErrors: false),
            responder: HTTPServerTests.router())
        let error = #expect(throws: HTTPError(.invalidConfiguration, "")) { try server.start() }
        #expect(error?.reason.contains("\(hard)") == true)
        #expect(error?.reason.contains("RLIMIT_NOFILE") == true)
    }
}
