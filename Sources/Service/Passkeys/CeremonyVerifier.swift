import Configuration
import Crypto
import Foundation
import JSON
import Replay
import WebAuthn

/// The relying party's side of every WebAuthn ceremony: the RP ID, each client's accepted origins and
/// user-verification policy, the decision on the outcomes the verifiers report, and record mode's recorder. The one
/// place a registration (sign-up, adding a passkey) or an assertion (login) is judged, and recorded in record mode.
package struct CeremonyVerifier: Sendable {
    /// Each client's accepted origins (`ClientConfiguration.acceptedOrigins`), parsed once: what a browser request's
    /// `Origin` is checked against (`checkRequestOrigin`).
    package let originPolicies: [String: OriginPolicy]
    /// Each client's accepted origins in each realm, parsed once (WebAuthn L3 §7.1 step 9 / §7.2 step 13): the
    /// client's own plus the realm's related origins (§5.11), keyed by client id, then realm name.
    private let ceremonyOriginPolicies: [String: [String: OriginPolicy]]
    /// The configured RP ID with its hash, computed once (WebAuthn L3 §7.1 step 13 / §7.2 step 15).
    package let relyingPartyID: RelyingPartyID
    /// The decision on the outcomes the verifiers report (counter, backup state, attestation trust): the default
    /// policy, the one `passkeyd replay` applies too.
    package let ceremonyPolicy = CeremonyPolicy()
    /// Record mode's writer (`recording.directory`), `nil` when record mode is off.
    package let recorder: CeremonyRecorder?
    private let configuration: ServerConfiguration
    /// The hosted login page's origins: the issuer's origin, where the page is served (RFC 6454 §4).
    package let hostedOrigins: OriginPolicy
    /// The hosted page's origins in each realm: the issuer's and the realm's related origins, keyed by realm name.
    private let hostedOriginPolicies: [String: OriginPolicy]
    /// The page origins of every realm (the issuer's and every realm's related origins): where a hosted page of some
    /// realm may be served, for the checks made before the page's transaction names its realm.
    package let hostedOriginsOfAnyRealm: OriginPolicy
    /// The loaded FIDO metadata, judged against by the clients' authenticator policies (`nil`: none is ever loaded).
    package let metadata: MetadataRegistry?
    /// `passkeys.attestation_root_files`: roots every registration's attestation may chain to, besides the loaded
    /// BLOB's (`MetadataSnapshot.anchors`).
    private let extraAttestationRoots: [Certificate]

    /// The verifier of `configuration`'s clients, recording through `recorder` when given, judging the clients'
    /// authenticator policies against `metadata`'s current BLOB.
    package init(configuration: ServerConfiguration, recorder: CeremonyRecorder?, metadata: MetadataRegistry? = nil) {
        self.configuration = configuration
        self.recorder = recorder
        self.metadata = metadata
        extraAttestationRoots = configuration.passkeys.attestationRoots
        relyingPartyID = RelyingPartyID(configuration.relyingParty.id)
        var policies: [String: OriginPolicy] = [:]
        var ceremonyPolicies: [String: [String: OriginPolicy]] = [:]
        for client in configuration.clients {
            let origins = client.acceptedOrigins(
                rpID: configuration.relyingParty.id, sharedWebOrigins: configuration.webOrigins)
            policies[client.clientID] = OriginPolicy(allowedOrigins: origins)
            var byRealm: [String: OriginPolicy] = [:]
            for realm in configuration.realms {
                byRealm[realm.name] = OriginPolicy(allowedOrigins: OriginRules.ceremonyOrigins(origins, realm: realm))
            }
            ceremonyPolicies[client.clientID] = byRealm
        }
        originPolicies = policies
        ceremonyOriginPolicies = ceremonyPolicies
        // The configuration checked that the issuer is an http(s) URL.
        let issuerOrigin = OriginPolicy.webOrigin(of: configuration.issuer) ?? configuration.issuer
        hostedOrigins = OriginPolicy(allowedOrigins: [issuerOrigin])
        var hosted: [String: OriginPolicy] = [:]
        for realm in configuration.realms {
            hosted[realm.name] = OriginPolicy(allowedOrigins: OriginRules.ceremonyOrigins([issuerOrigin], realm: realm))
        }
        hostedOriginPolicies = hosted
        hostedOriginsOfAnyRealm = OriginPolicy(
            allowedOrigins: configuration.realms.reduce([issuerOrigin]) { OriginRules.ceremonyOrigins($0, realm: $1) })
    }

    /// The origins a ceremony of the hosted page in `realm` may come from: the issuer's origin, where the page is
    /// served, and the realm's related origins (WebAuthn L3 §5.11), where it may be served too; not the clients' app
    /// origins. The issuer's origin alone for a realm the configuration does not hold.
    package func hostedOriginPolicy(realm: String) -> OriginPolicy {
        hostedOriginPolicies[realm] ?? hostedOrigins
    }

    /// The attestation trust anchors of a registration judged with `snapshot` (WebAuthn L3 §7.1 step 23): its
    /// statements' roots, built once per BLOB, and the operator's.
    package func attestationAnchors(_ snapshot: MetadataSnapshot?) -> AttestationTrustAnchors {
        var anchors = snapshot?.anchors ?? AttestationTrustAnchors()
        anchors.extra = extraAttestationRoots
        return anchors
    }

    /// The verifier of the context's configuration, recorder and metadata.
    package init(context: ServerContext) {
        self.init(configuration: context.configuration, recorder: context.recorder, metadata: context.metadata)
    }

    /// The origins accepted in the client data of `client`'s ceremonies in `realm` (a realm name): the client's own
    /// and the realm's related origins (WebAuthn L3 §5.11).
    /// - Throws: a bug (500) for a client or realm the configuration does not hold.
    package func originPolicy(for client: ClientConfiguration, realm: String) throws -> OriginPolicy {
        guard let policy = ceremonyOriginPolicies[client.clientID]?[realm] else {
            throw OAuthError.bug("client \(client.clientID) in realm \(realm) without origin policy")
        }
        return policy
    }

    /// WebAuthn L3 §7.1 step 15 / §7.2 step 17: UV is required when the client's policy is `required`.
    package func userVerificationRequired(_ client: ClientConfiguration) -> Bool {
        configuration.userVerification(for: client).requiresVerifiedUser
    }

    /// A ceremony request from a browser (one with an `Origin` header) must come from an origin `client` accepts:
    /// WebAuthn L3 §7.1 step 9 / §7.2 step 13 would refuse the ceremony at `/oauth/token`, after the user made a
    /// passkey. A request without `Origin` (a native app) passes.
    /// - Throws: 403 `access_denied`.
    package func checkRequestOrigin(_ origin: String?, client: ClientConfiguration) throws {
        guard let origin else { return }
        guard let policy = originPolicies[client.clientID] else {
            throw OAuthError.bug("client \(client.clientID) without origin policy")
        }
        guard policy.allows(origin: origin) else {
            throw OAuthError(
                .accessDenied, "The request's Origin is not accepted for this client.",
                logCode: "origin_not_accepted", reason: "origin \(origin.prefix(256)) for \(client.clientID)")
        }
    }

    /// The one place a sign-up's credential is judged (WebAuthn L3 §7.1): its members decoded, the verifier, then the
    /// attestation trust as `CeremonyPolicy` decides (§7.1 step 24). In record mode the verdict is recorded from
    /// these very inputs (`CeremonyRecorder`), accepted or refused, before it is acted on.
    package func verifiedRegistration(
        _ credential: Result<PublicKeyCredentialJSON, WebAuthnError>, sent: JSONValue,
        expectations: RegistrationExpectations
    ) throws(WebAuthnError) -> VerifiedRegistration {
        let policy = ceremonyPolicy
        let outcome = Result { () throws(WebAuthnError) -> VerifiedRegistration in
            let verified = try RegistrationVerifier(expectations: expectations).verify(
                try credential.get().registration())
            try policy.evaluate(verified).get()
            return verified
        }
        recorder?.record("registration", refusal: outcome.refusalCode, at: expectations.verificationTime) { name in
            CeremonyRecording.registration(name: name, expectations: expectations, response: sent, outcome: outcome)
        }
        return try outcome.get()
    }

    /// The one place a login's assertion is judged (WebAuthn L3 §7.2): its members decoded, the stored COSE_Key
    /// parsed, the verifier, then the counter and backup state as `CeremonyPolicy` decides (§7.2 step 22, §6.1.3).
    /// `credentialID` is the stored credential's (§7.2 step 5); it was found by the `rawId` sent, so a recording need
    /// not hold it. In record mode the verdict is recorded from these very inputs, accepted or refused.
    package func verifiedAssertion(
        _ assertion: Result<AuthenticationResponse, WebAuthnError>, sent: JSONValue,
        side: CeremonyRecording.AuthenticationSide, credentialID: [UInt8], now: Date
    ) throws(WebAuthnError) -> VerifiedAssertion {
        let policy = ceremonyPolicy
        let outcome = Result { () throws(WebAuthnError) -> VerifiedAssertion in
            let response = try assertion.get()
            var expectations = try side.expectations()
            expectations.credentialID = credentialID
            let verified = try AuthenticationVerifier(expectations: expectations).verify(response)
            try policy.evaluate(verified).get()
            return verified
        }
        recorder?.record("authentication", refusal: outcome.refusalCode, at: now) { name in
            CeremonyRecording.authentication(name: name, side: side, verifyAt: now, response: sent, outcome: outcome)
        }
        return try outcome.get()
    }
}

extension Result where Failure == WebAuthnError {
    /// The refusal's code, `nil` when the ceremony verified.
    fileprivate var refusalCode: WebAuthnError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
