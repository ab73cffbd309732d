import Crypto
import Foundation
import Metadata

/// `clients[].attestation`: the attestation conveyance a client's creation options ask for (WebAuthn L3 §5.4
/// `attestation`, §5.4.7 `AttestationConveyancePreference`). The raw value is the spec's spelling.
public enum AttestationConveyance: String, Sendable, Equatable, CaseIterable {
    /// The browser strips the attestation (the default, and WebAuthn's): nothing to judge a trust path with.
    case none
    /// An attestation is welcome, possibly anonymized by the client.
    case indirect
    /// The authenticator's attestation as it made it.
    case direct
    /// An enterprise attestation, uniquely identifying the authenticator (for enterprise-managed ones only).
    case enterprise
}

/// `clients[].authenticators`: which authenticators a client accepts at sign-up and when a passkey is added, and what
/// a login with an authenticator the FIDO Metadata Service reports compromised does (docs/authenticator-policy.md).
/// Evaluated in Service (`AuthenticatorPolicyEvaluation`) against the loaded metadata BLOB; the default accepts what
/// passkeyd accepted before (a compromise refusal has effect only once a BLOB is loaded).
public struct AuthenticatorPolicy: Sendable, Equatable {
    /// What a login with a credential whose authenticator the current BLOB reports compromised does
    /// (`compromised_at_login`).
    public enum CompromisedAtLogin: String, Sendable, Equatable, CaseIterable {
        /// Nothing: the login proceeds, unrecorded.
        case allow
        /// The login proceeds, and an `authenticator_reported` audit event (decision `warned`) records it.
        case warn
        /// The login is refused (403 `access_denied` naming the status), with its `authenticator_reported` event.
        case refuse
    }

    /// The attestation's trust path must chain to a trusted root (WebAuthn L3 §7.1 step 24): the metadata statement's
    /// roots for the AAGUID, or `passkeys.attestation_root_files` (`require_trusted_attestation`).
    public var requireTrustedAttestation = false
    /// When non-empty, only these AAGUIDs (16 bytes each) are accepted (`allowed_aaguids`).
    public var allowedAAGUIDs: Set<[UInt8]> = []
    /// These AAGUIDs are refused (`denied_aaguids`).
    public var deniedAAGUIDs: Set<[UInt8]> = []
    /// The lowest FIDO certification accepted (`minimum_certification`): an authenticator without metadata, or
    /// without a trusted attestation to prove its model, is refused.
    package var minimumCertification: CertificationLevel? = nil
    /// Refuse a registration whose authenticator the loaded BLOB reports compromised (`refuse_compromised`).
    public var refuseCompromised = true
    /// What a login with a reported authenticator does (`compromised_at_login`).
    public var compromisedAtLogin = CompromisedAtLogin.warn

    /// The default policy: anything is accepted but an authenticator reported compromised (once a BLOB is loaded),
    /// whose logins are recorded.
    public init() {}

    /// Whether this policy ever needs an attestation's trust path (so `attestation: none` would defeat it).
    public var needsAttestation: Bool { requireTrustedAttestation || minimumCertification != nil }

    /// The policy at `object`'s `authenticators` (absent: the default), for a client whose options ask for
    /// `attestation`.
    /// - Throws: a field that is malformed, `allowed_aaguids` with `denied_aaguids`, or a setting that needs an
    ///   attestation with `attestation: none` (the browser would strip it, so every sign-up would be refused).
    package static func read(_ client: ConfigObject, attestation: AttestationConveyance) throws(ConfigurationError)
        -> AuthenticatorPolicy
    {
        var policy = AuthenticatorPolicy()
        guard let object = try client.object("authenticators") else { return policy }
        policy.requireTrustedAttestation = try object.bool("require_trusted_attestation", default: false)
        policy.allowedAAGUIDs = try aaguids(object, "allowed_aaguids")
        policy.deniedAAGUIDs = try aaguids(object, "denied_aaguids")
        if !policy.allowedAAGUIDs.isEmpty, !policy.deniedAAGUIDs.isEmpty {
            throw object.error(
                "denied_aaguids", "cannot be set with allowed_aaguids: list only the authenticators to accept")
        }
        if let text = try object.optionalString("minimum_certification") {
            guard let level = CertificationLevel(rawValue: text) else {
                let names = CertificationLevel.allCases.map(\.rawValue).joined(separator: ", ")
                throw object.error("minimum_certification", "must be one of \(names)")
            }
            policy.minimumCertification = level
        }
        policy.refuseCompromised = try object.bool("refuse_compromised", default: true)
        let login = try object.string("compromised_at_login", default: CompromisedAtLogin.warn.rawValue)
        guard let decision = CompromisedAtLogin(rawValue: login) else {
            throw object.error("compromised_at_login", "must be allow, warn or refuse")
        }
        policy.compromisedAtLogin = decision
        try object.rejectUnknownKeys()
        if policy.needsAttestation, attestation == .none {
            let setting = policy.requireTrustedAttestation ? "require_trusted_attestation" : "minimum_certification"
            throw object.error(
                setting,
                "needs an attestation, but the client's \"attestation\" is \"none\" (browsers then strip it and "
                    + "every sign-up is refused): set \"attestation\" to \"direct\" or \"enterprise\"")
        }
        return policy
    }

    /// The AAGUIDs listed at `key` (UUID text, RFC 9562 §4, any case), as 16 bytes each.
    private static func aaguids(_ object: ConfigObject, _ key: String) throws(ConfigurationError) -> Set<[UInt8]> {
        var result = Set<[UInt8]>()
        for (index, text) in try object.stringArray(key).enumerated() {
            guard text.count == 36, let uuid = UUID(uuidString: text) else {
                throw object.error("\(key)[\(index)]", "must be an AAGUID in UUID form (8-4-4-4-12 hex digits)")
            }
            result.insert(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        }
        return result
    }
}

extension ClientConfiguration {
    /// `authenticators.allowed_aaguids` without `require_trusted_attestation`: an AAGUID that no trusted attestation
    /// proves is only what the authenticator (or a script posing as one) claims, so the list keeps out honest
    /// authenticators only.
    /// `field` is the client's path in the file (`clients[0]`).
    package func authenticatorWarnings(field: String) -> [ConfigurationWarning] {
        guard !authenticators.allowedAAGUIDs.isEmpty, !authenticators.requireTrustedAttestation else { return [] }
        return [
            ConfigurationWarning(
                field: "\(field).authenticators.allowed_aaguids",
                reason:
                    "is set without require_trusted_attestation: an unattested AAGUID is the authenticator's own "
                    + "claim, which anything can make; set require_trusted_attestation (and \"attestation\": "
                    + "\"direct\") so that only attested authenticators of these models are accepted")
        ]
    }
}
