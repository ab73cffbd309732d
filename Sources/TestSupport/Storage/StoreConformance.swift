import Storage

/// The store behaviour suite: every driver must pass every check. [HB]
///
/// A test target runs `StoreConformance.checks` one by one, each on a fresh empty store from its own factory:
///
/// ```swift
/// @Test("store behaves", arguments: StoreConformance.checks)
/// func conforms(_ check: StoreConformance.Check) async throws {
///     let store = MemoryStore()
///     try await check.run(on: store)
///     await store.close()
/// }
/// ```
public enum StoreConformance {
    /// One named behaviour check; it throws `ConformanceFailure` (or the store's error) on the first mismatch.
    public struct Check: Sendable, CustomStringConvertible {
        /// What the check verifies, in words.
        public let name: String
        private let body: @Sendable (any Store) async throws -> Void

        init(_ name: String, _ body: @escaping @Sendable (any Store) async throws -> Void) {
            self.name = name
            self.body = body
        }

        /// Runs the check on `store`, which must be empty and open.
        public func run(on store: any Store) async throws {
            try await body(store)
        }

        /// The name.
        public var description: String { name }
    }

    /// Every check, in a stable order.
    public static let checks: [Check] =
        userChecks + sessionChecks + refreshTokenChecks + signingKeyChecks + deviceKeyChecks + eventChecks
        + transactionChecks + heartbeatChecks + auditChecks + dpopChecks + passwordFallbackChecks
        + fallbackCounterChecks + deviceEnrolmentChecks + loginCompletionChecks + profileChecks + lifecycleChecks
        + spentTokenChecks + sessionSecurityChecks + refreshRetryChecks + spentAuthSessionChecks + organizationChecks
        + hostedLoginChecks + metadataChecks

    /// Runs every check, each on a fresh store from `makeStore`, closing it afterwards.
    public static func run(makeStore: @Sendable () async throws -> any Store) async throws {
        for check in checks {
            let store = try await makeStore()
            do {
                try await check.run(on: store)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }
}
