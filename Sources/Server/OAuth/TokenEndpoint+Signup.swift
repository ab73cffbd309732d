import Crypto
import HTTP
import JSON
import Storage
import WebAuthn

extension TokenEndpoint {
    /// A signup session: WebAuthn L3 §7.1 on the attestation, then the user and the credential in one
    /// transaction (with the first refresh token).
    /// `credential` is the response as read from `sent` (the `authn_response` JSON): a malformed one is a refused
    /// ceremony, judged (and recorded in record mode) like any other.
    func signup(
        session: AuthSession, credential: Result<PublicKeyCredentialJSON, WebAuthnError>, sent: JSONValue,
        request: GrantRequest
    ) async throws -> Response {
        guard let userHandle = session.userHandle, let policy = originPolicies[request.client.clientID] else {
            throw OAuthError.bug("signup session without user handle or client without origin policy")
        }
        let expectations = RegistrationExpectations(
            challenge: session.challenge, rpID: relyingPartyID, originPolicy: policy,
            userVerificationRequired: userVerificationRequired(request.client),
            // §7.1 step 19: only what /passkey/register offered in pubKeyCredParams.
            allowedAlgorithms: [.edDSA, .es256, .rs256], verificationTime: request.now)
        // The verifier also refuses a rawId other than the attested credential id (the record is keyed on it), so
        // `passkeyd replay` judges a recorded sign-up exactly as this endpoint does. §7.1 step 24: the attestation
        // trust outcome, as the policy decides (reported, not required, by default).
        let verified = try verifiedRegistration(credential, sent: sent, expectations: expectations)
        let user = User(
            id: try Self.newUserID(), userHandle: userHandle, realm: session.realm, email: session.email,
            phoneNumber: session.phoneNumber, username: session.username, name: session.name, createdAt: request.now,
            profile: session.profile)
        let credential = Credential(
            credentialID: verified.credentialID, userID: user.id, publicKey: verified.credentialPublicKey.rawBytes,
            algorithm: verified.credentialPublicKey.algorithm.rawValue, signCount: verified.signCount,
            uvInitialized: verified.userVerified, backupEligible: verified.backupEligible, backedUp: verified.backedUp,
            transports: verified.transports, aaguid: verified.aaguid, attestationFormat: verified.format,
            createdAt: request.now, lastUsedAt: request.now)
        let refresh = try refreshTokenForLogin(user: user, request: request)
        do {
            try await context.store.write { writer in
                try writer.insertUser(user, credential: credential)
                if let refresh { try writer.insertRefreshToken(refresh.record) }
                _ = try writer.appendSecurityEvent(
                    AuthenticationAuditEvent.make(
                        AuthenticationAuditEvent.signup, outcome: AuthenticationAuditEvent.success, now: request.now,
                        userID: user.id, clientID: request.client.clientID, credentialID: credential.credentialID,
                        familyID: refresh?.record.familyID))
            }
        } catch let error as StorageError where error.code == .conflict {
            // §7.1 step 26: a credential id already registered is refused; an identifier taken since
            // /passkey/register lost the race. Either way nothing was written.
            let code = error.constraint == .credentialID ? "credential_exists" : "identifier_taken"
            throw OAuthError.ceremonyFailed(code, reason: error.description)
        }
        return try await ceremonyTokens(
            event: "signup", user: user, userVerified: verified.userVerified, refreshToken: refresh?.value,
            request: request)
    }

    /// A user id (`sub`): 16 random bytes in hex, nothing personal.
    static func newUserID() throws -> String {
        try SecureRandom.bytes(count: 16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
