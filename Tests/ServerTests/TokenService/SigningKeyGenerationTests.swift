import Foundation
import Storage
import Testing

@testable import Service

@Suite("Signing keys are generated off the cooperative pool")
struct SigningKeyGenerationTests {
    @Test("generateKeys runs its work on a thread of its own, named for it")
    func ownThread() async throws {
        let name = try await SigningKeyRing.onGenerationThread { Thread.current.name }
        #expect(name == SigningKeyRing.generationThreadName)
    }

    @Test("generateKeys returns one key of each algorithm asked, in order, created at now")
    func keys() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let keys = try await SigningKeyRing.generateKeys([.rs256, .es256], now: now)
        #expect(keys.map(\.algorithm) == ["RS256", "ES256"])
        #expect(keys.allSatisfy { $0.createdAt == now && $0.retiredAt == nil })
        #expect(Set(keys.map(\.kid)).count == 2)
    }

    @Test("servers starting together on one empty store leave one key of each algorithm, and agree on them")
    func concurrentStarts() async throws {
        let store = MemoryStore()
        let configuration = try TestConfiguration.make()
        let services = (0..<3).map { _ in TokenService(configuration: configuration, store: store, clock: TestClock()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services { group.addTask { try await service.bootstrap() } }
            try await group.waitForAll()
        }
        let keys = try await store.read { try $0.signingKeys() }
        #expect(keys.map(\.algorithm).sorted() == ["ES256", "RS256"])
        let documents = try await services.asyncMap { try await $0.jwksBytes() }
        #expect(Set(documents).count == 1)
    }
}

extension Array where Element: Sendable {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
