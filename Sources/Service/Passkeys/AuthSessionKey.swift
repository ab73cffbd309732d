import Crypto
import Foundation
import Storage
import Synchronization

/// The keys of the sealed auth sessions (`AuthSessionSealer`) and of the hosted page's transactions
/// (`HostedTransactionSealer`, a key of its own derived from the same secret), held by the `ServerContext`: loaded at
/// start (`load`), before the endpoints that seal and open sessions serve, which then use them without a store round
/// trip, and read again every `reloadInterval` (`startReloading`), so that a rotation reaches every node.
///
/// The keys are derived from server secrets (`server_secrets`): `secretName`, the current one, which seals — the
/// first node to start inserts it unless present, so every node of one database seals and opens with the same key —
/// and, during a rotation (`AuthSessionKeyRotation`), `nextSecretName` (published before it seals) and
/// `previousSecretName` (retired, still opening what it sealed until that expires). With a key-encryption key
/// configured each is stored sealed under it, bound to its name, as the other server secrets
/// (`ServerSecretSealing` seals one stored before the key-encryption key was configured).
package final class AuthSessionKey: Sendable {
    /// The server secret the sealing key is derived from.
    package static let secretName = "auth_session_key"
    /// The secret a rotation publishes: every node opens with it before any node seals with it.
    package static let nextSecretName = "auth_session_key.next"
    /// The secret a rotation retired: it opens, it no longer seals.
    package static let previousSecretName = "auth_session_key.previous"
    /// The three, in the keyring's order (the current one seals).
    package static let secretNames = [secretName, nextSecretName, previousSecretName]
    /// How often a running node reads the secrets again: as often as the signing keys.
    package static let reloadInterval: Duration = .seconds(TokenService.reloadInterval)

    /// The keyring in use and the stored bytes it was made from (to tell a change).
    private let state = Mutex<(keyring: AuthSessionKeyring, stored: [[UInt8]?])?>(nil)
    /// Where `load` read the secrets, and with which keys they open: every later read goes there (nil before
    /// `load`, and for a keyring `install` made).
    private let source = Mutex<(store: any Store, keys: SecretEncryptionKeys)?>(nil)
    /// When a value that opened under no loaded secret last made this node read the secrets (server time).
    private let lastOnDemandReload = Mutex<Date?>(nil)

    /// A holder with no key loaded yet.
    package init() {}

    /// Loads the keys from `store` (opened with `keys`), storing a new current secret first when there is none; of
    /// nodes inserting at once, all use the first one stored.
    package func load(store: any Store, keys: SecretEncryptionKeys) async throws {
        let name = Self.secretName
        let current = try await store.read { try $0.serverSecret(name: name) }
        _ = try await NamedServerSecret.secret(name, stored: current, keys: keys, store: store)
        source.withLock { $0 = (store, keys) }
        try await reload()
    }

    /// Reads the secrets again from where `load` read them and uses them if they changed; returns whether they did
    /// (false before `load`).
    @discardableResult
    package func reload() async throws -> Bool {
        guard let (store, keys) = source.withLock({ $0 }) else { return false }
        let stored = try await store.read { reader in
            try Self.secretNames.map { try reader.serverSecret(name: $0) }
        }
        if let state = state.withLock({ $0 }), state.stored == stored { return false }
        guard let currentStored = stored[0] else {
            throw OAuthError.bug("the server secret \(Self.secretName) is not stored")
        }
        let current = try keys.namedSecret(currentStored, name: Self.secretName)
        var opening: [[UInt8]] = []
        for (name, value) in zip(Self.secretNames.dropFirst(), stored.dropFirst()) {
            if let value { opening.append(try keys.namedSecret(value, name: name)) }
        }
        let keyring = try AuthSessionKeyring(current: current, opening: opening)
        state.withLock { $0 = (keyring, stored) }
        return true
    }

    /// Reads the secrets again because a value opened under none of the loaded ones (a rotation this node has not
    /// read yet), at most once per `TokenService.onDemandReloadInterval` of server time `now`, as the signing keys
    /// for an unknown `kid`: made-up values cost at most one read a second. Returns whether the keyring changed; a
    /// read that fails changes nothing (the value is then refused as any unknown one).
    package func reloadOnDemand(now: Date) async -> Bool {
        let due = lastOnDemandReload.withLock { (last) -> Bool in
            guard TokenService.isOnDemandReloadDue(last: last, now: now) else { return false }
            last = now
            return true
        }
        guard due else { return false }
        return (try? await reload()) ?? false
    }

    /// Reads the secrets again every `reloadInterval` until the task is cancelled; a read that fails keeps the
    /// keyring in use and is logged.
    package func startReloading(logger: Logger) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: Self.reloadInterval)
                } catch {
                    return
                }
                do {
                    if try await reload() {
                        logger.log(.info, "auth session keys reloaded") { line in
                            line.add("keys", self.keyring()?.count ?? 0)
                        }
                    }
                } catch {
                    logger.log(.warning, "auth session keys not reloaded; the ones in use are kept") { line in
                        line.add("error", String(describing: error))
                    }
                }
            }
        }
    }

    /// Uses the keys derived from `secret` alone from now on (a context a test makes without a store).
    package func install(secret: [UInt8]) throws {
        let keyring = try AuthSessionKeyring(current: secret)
        state.withLock { $0 = (keyring, []) }
    }

    /// The keyring in use, nil before `load`.
    package func keyring() -> AuthSessionKeyring? {
        state.withLock { $0?.keyring }
    }

    /// The auth sessions' sealing: the current secret seals, every loaded one opens.
    /// - Throws: `OAuthError.bug` before `load` (a start always loads it).
    package func sealer() throws -> SealerRing<AuthSessionSealer> {
        guard let keyring = keyring() else { throw OAuthError.bug("the auth session key is not loaded") }
        return keyring.sessions
    }

    /// The hosted page's transactions' sealing, under keys derived from the same secrets.
    /// - Throws: `OAuthError.bug` before `load` (a start always loads it).
    package func transactionSealer() throws -> SealerRing<HostedTransactionSealer> {
        guard let keyring = keyring() else { throw OAuthError.bug("the hosted transaction key is not loaded") }
        return keyring.transactions
    }

    /// The pushed authorization requests' sealing (`PushedRequestSealer`), under keys derived from the same secrets.
    /// - Throws: `OAuthError.bug` before `load` (a start always loads it).
    package func pushedRequestSealer() throws -> SealerRing<PushedRequestSealer> {
        guard let keyring = keyring() else { throw OAuthError.bug("the pushed request key is not loaded") }
        return keyring.pushedRequests
    }
}
