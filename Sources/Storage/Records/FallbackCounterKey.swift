/// The spelling of the password fallback's counter keys (`FallbackCounter.key`): the one home of the rule, used by
/// the server's throttles and by `StoreWriter.liftLoginLocks`, which a driver may answer in SQL (the store
/// behaviour suite then holds its SQL to these spellings).
public enum FallbackCounterKey {
    /// The prefix of every `identity` key.
    public static let identityPrefix = "srp_identity:"
    /// The prefix of every `address` key.
    public static let addressPrefix = "srp_address:"
    /// The prefix of every `recoveryIdentifier` key.
    public static let recoveryIdentifierPrefix = "recovery_identity:"
    /// The prefix of every `recoveryAddress` key.
    public static let recoveryAddressPrefix = "recovery_address:"

    /// Failed SRP logins of `identity` in `realm`: keyed by the identity, not the user, so an unknown identity is
    /// counted, delayed and locked exactly like a known one (no existence oracle). The realm's length in UTF-8
    /// bytes comes first so that no realm/identity pair spells another's key.
    public static func identity(realm: String, identity: String) -> String {
        "\(identityPrefix)\(realm.utf8.count):\(realm):\(identity)"
    }

    /// Failed SRP logins from one client network (a sliding window, `srp.address_window_seconds`): `network` is the
    /// server's key of the address's network (`ClientAddressPrefix.key(of:)`, an IPv4 /24 or an IPv6 /64), so that
    /// one host cannot escape the count by moving within its own range.
    public static func address(network: String) -> String {
        "\(addressPrefix)\(network)"
    }

    /// Consecutive biometric failures the device reported for device key `keyID`.
    public static func biometric(keyID: String) -> String {
        "biometric:\(keyID)"
    }

    /// Failed recovery-code attempts for `identifier` in `realm` (known or not, like the SRP identity's), the realm's
    /// UTF-8 length first for the same reason.
    public static func recoveryIdentifier(realm: String, identifier: String) -> String {
        "\(recoveryIdentifierPrefix)\(realm.utf8.count):\(realm):\(identifier)"
    }

    /// Failed recovery-code attempts from one client network (`network` as for `address(network:)`).
    public static func recoveryAddress(network: String) -> String {
        "\(recoveryAddressPrefix)\(network)"
    }

    /// The counters that can lock `user` out of a fallback: the failed-password counter of their SRP identity
    /// (`verifier`'s, when they have one) and the failed-recovery counter of each of their identifiers. A passkey
    /// login (`StoreWriter.liftLoginLocks`) and `passkeyd users unlock` reset them; they go with the account.
    public static func identityLocks(of user: User, verifier: PasswordVerifier?) -> [String] {
        var keys = user.identifiers.map { recoveryIdentifier(realm: user.realm, identifier: $0.value) }
        if let verifier { keys.append(identity(realm: verifier.realm, identity: verifier.identity)) }
        return keys
    }
}
