/// The spelling of the password fallback's counter keys (`FallbackCounter.key`): the one home of the rule, used by
/// the server's throttles and by `StoreWriter.liftLoginLocks`, which a driver may answer in SQL (the store
/// behaviour suite then holds its SQL to these spellings).
public enum FallbackCounterKey {
    /// Failed SRP logins of `identity` in `realm`: keyed by the identity, not the user, so an unknown identity is
    /// counted, delayed and locked exactly like a known one (no existence oracle). The realm's length in UTF-8
    /// bytes comes first so that no realm/identity pair spells another's key.
    public static func identity(realm: String, identity: String) -> String {
        "srp_identity:\(realm.utf8.count):\(realm):\(identity)"
    }

    /// Failed SRP logins from one client address (a sliding window, `srp.address_window_seconds`).
    public static func address(_ address: String) -> String {
        "srp_address:\(address)"
    }

    /// Consecutive biometric failures the device reported for device key `keyID`.
    public static func biometric(keyID: String) -> String {
        "biometric:\(keyID)"
    }

    /// Failed recovery-code attempts for `identifier` in `realm` (known or not, like the SRP identity's), the realm's
    /// UTF-8 length first for the same reason.
    public static func recoveryIdentifier(realm: String, identifier: String) -> String {
        "recovery_identity:\(realm.utf8.count):\(realm):\(identifier)"
    }

    /// Failed recovery-code attempts from one client address.
    public static func recoveryAddress(_ address: String) -> String {
        "recovery_address:\(address)"
    }
}
