import Configuration
import Crypto
import Foundation
import Metadata
import WebAuthn

/// The one home of a client's authenticator policy decisions (`clients[].authenticators`,
/// docs/authenticator-policy.md), judged against the loaded FIDO metadata BLOB: a registration's (sign-up, the hosted
/// page, `POST /me/passkeys`, through `CeremonyVerifier.registeredCredential`) after WebAuthn L3 §7.1 verified it, and
/// a login's (`WebAuthnGrant.login`) after §7.2 did. Pure: the caller hands in the catalog and the instant.
package enum AuthenticatorPolicyEvaluation {
    /// The authenticator of a registration, as the policy sees it.
    package struct Authenticator: Sendable {
        /// The AAGUID of the attested credential data (all zero for U2F authenticators).
        package let aaguid: [UInt8]
        /// WebAuthn L3 §7.1 step 24's outcome against the metadata's and the operator's roots.
        package let trust: AttestationTrustResult
        /// The attestation certificate (the trust path's first), if the statement had one.
        package let leaf: Certificate?

        package init(aaguid: [UInt8], trust: AttestationTrustResult, leaf: Certificate?) {
            self.aaguid = aaguid
            self.trust = trust
            self.leaf = leaf
        }

        /// The one of `registration`.
        package init(_ registration: VerifiedRegistration) {
            self.init(
                aaguid: registration.aaguid, trust: registration.attestationTrust, leaf: registration.trustPath.first)
        }
    }

    /// Why a registration is refused: a stable code (the audit event's reason and the log code's suffix) and the
    /// sentence the client is answered with.
    package struct Refusal: Sendable, Equatable {
        /// The reasons, spelled as the audit log records them.
        package enum Reason: String, Sendable, Equatable {
            /// The AAGUID is in `denied_aaguids`.
            case denied = "denied_aaguid"
            /// `allowed_aaguids` is set and does not hold the AAGUID.
            case notAllowed = "not_allowed_aaguid"
            /// The metadata reports a compromise status for the authenticator.
            case compromised
            /// The attestation's trust path chains to no trusted root (or there is none).
            case untrustedAttestation = "untrusted_attestation"
            /// `minimum_certification` is set and the metadata has no entry for the authenticator.
            case noMetadata = "no_metadata"
            /// `minimum_certification` is set and the authenticator is certified below it, or not at all.
            case insufficientCertification = "insufficient_certification"
        }

        package let reason: Reason
        /// The AAGUID of the authenticator refused.
        package let aaguid: [UInt8]
        /// The metadata statement's `description`, when the BLOB has one.
        package let authenticatorName: String?
        /// The compromise status, for `compromised`; the latest status otherwise, when the metadata has one.
        package let status: AuthenticatorStatus?
        /// What the refusal says after the authenticator's name: "its FIDO metadata reports REVOKED".
        package let explanation: String

        /// The authenticator as named to the client: its metadata description, or its AAGUID.
        package var authenticatorLabel: String {
            AuthenticatorPolicyEvaluation.label(name: authenticatorName, aaguid: aaguid)
        }
    }

    /// What a login with a credential of a reported authenticator does (`compromised_at_login`).
    package enum LoginDecision: Sendable, Equatable {
        /// The metadata reports nothing against the authenticator, or the client allows it: nothing to record.
        case proceed
        /// The login proceeds and is recorded (`warn`).
        case warn(Reported)
        /// The login is refused (`refuse`).
        case refuse(Reported)
    }

    /// An authenticator the metadata reports compromised.
    package struct Reported: Sendable, Equatable {
        package let aaguid: [UInt8]
        package let authenticatorName: String?
        package let report: StatusReport
    }

    /// The registration decision for `authenticator` under `policy`, with the BLOB `catalog` (if one is loaded) at
    /// `now`: `nil` accepts it. In order: the client's AAGUID lists, a compromise the metadata reports, the trust path
    /// (WebAuthn L3 §7.1 step 24), then the certification.
    package static func registration(
        _ authenticator: Authenticator, policy: AuthenticatorPolicy, catalog: MetadataCatalog?, now: Date
    ) -> Refusal? {
        let aaguid = authenticator.aaguid
        let entry = catalog.flatMap { metadataEntry(in: $0, for: authenticator) }
        func refusal(_ reason: Refusal.Reason, status: AuthenticatorStatus? = nil, _ explanation: String) -> Refusal {
            Refusal(
                reason: reason, aaguid: aaguid, authenticatorName: entry?.statement?.description,
                status: status ?? entry?.latestStatus(at: now), explanation: explanation)
        }
        if policy.deniedAAGUIDs.contains(aaguid) {
            return refusal(.denied, "it is in this client's denied authenticators")
        }
        if !policy.allowedAAGUIDs.isEmpty, !policy.allowedAAGUIDs.contains(aaguid) {
            return refusal(.notAllowed, "it is not in this client's allowed authenticators")
        }
        let trusted = authenticator.trust.isTrusted
        if let entry, let report = entry.compromise(at: now) {
            // A compromised attestation key (or a revoked model) voids what the attestation proves, so a policy that
            // needs a trusted attestation refuses it even with `refuse_compromised: false`.
            let voidsAttestation = [AuthenticatorStatus.attestationKeyCompromise, .revoked].contains(report.status)
            if policy.refuseCompromised || (policy.needsAttestation && voidsAttestation) {
                return refusal(
                    .compromised, status: report.status, "its FIDO metadata reports \(report.status.rawValue)")
            }
        }
        if policy.requireTrustedAttestation, !trusted {
            return refusal(.untrustedAttestation, untrustedExplanation(authenticator.trust))
        }
        if let minimum = policy.minimumCertification {
            // A certification is the model's; only a trusted attestation proves the authenticator is of that model
            // (an AAGUID alone is its own claim).
            guard trusted else {
                return refusal(
                    .untrustedAttestation,
                    "\(untrustedExplanation(authenticator.trust)), and this client requires \(minimum.rawValue)")
            }
            guard let entry else {
                return refusal(.noMetadata, "it has no FIDO metadata, and this client requires \(minimum.rawValue)")
            }
            guard let level = entry.certification(at: now) else {
                return refusal(
                    .insufficientCertification, "it is not FIDO certified, and this client requires \(minimum.rawValue)"
                )
            }
            if level < minimum {
                return refusal(
                    .insufficientCertification,
                    "it is certified \(level.rawValue), this client requires \(minimum.rawValue)")
            }
        }
        return nil
    }

    /// The login decision for a credential of the authenticator `aaguid` under `policy`: one dictionary lookup in the
    /// loaded BLOB's catalog (by AAGUID, or for the all-zero AAGUID of U2F by the attestation certificate's key
    /// identifier kept at registration), and nothing at all under `allow` or without a BLOB.
    package static func login(
        aaguid: [UInt8], keyIdentifier: String?, policy: AuthenticatorPolicy, catalog: MetadataCatalog?, now: Date
    ) -> LoginDecision {
        guard policy.compromisedAtLogin != .allow, let catalog,
            let model = AuthenticatorModelKey(aaguid: aaguid, storedKeyIdentifier: keyIdentifier),
            let entry = metadataEntry(in: catalog, for: model), let report = entry.compromise(at: now)
        else { return .proceed }
        let reported = Reported(aaguid: aaguid, authenticatorName: entry.statement?.description, report: report)
        return policy.compromisedAtLogin == .refuse ? .refuse(reported) : .warn(reported)
    }

    /// The metadata entry of `authenticator`: by AAGUID, or, for the all-zero AAGUID of U2F, by its attestation
    /// certificate's key identifier (MDS 3.0 `attestationCertificateKeyIdentifiers`).
    private static func metadataEntry(in catalog: MetadataCatalog, for authenticator: Authenticator) -> MetadataEntry? {
        AuthenticatorModelKey(aaguid: authenticator.aaguid, leaf: authenticator.leaf).flatMap {
            metadataEntry(in: catalog, for: $0)
        }
    }

    /// The metadata entry of the model `key`.
    private static func metadataEntry(in catalog: MetadataCatalog, for key: AuthenticatorModelKey) -> MetadataEntry? {
        switch key {
        case .aaguid(let aaguid): catalog.entry(aaguid: aaguid)
        case .keyIdentifier(let identifier): catalog.entry(keyIdentifier: identifier)
        }
    }

    /// An authenticator as an answer names it: its metadata description and AAGUID, or its AAGUID alone.
    package static func label(name: String?, aaguid: [UInt8]) -> String {
        name.map { "\"\($0.prefix(128))\" (AAGUID \(UUIDText.format(aaguid)))" }
            ?? "with AAGUID \(UUIDText.format(aaguid))"
    }

    /// Why an attestation does not count as trusted, for the client.
    private static func untrustedExplanation(_ trust: AttestationTrustResult) -> String {
        switch trust {
        case .trusted: "its attestation leads to a trusted root"
        case .noAttestation: "it sent no attestation"
        case .selfAttestation: "its attestation is self attestation, which no root vouches for"
        case .untrusted: "its attestation does not lead to a trusted root"
        }
    }
}
