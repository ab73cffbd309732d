import Configuration
import Foundation
import Storage

extension CeremonyVerifier {
    /// A login's authenticator under `client`'s `compromised_at_login` (`AuthenticatorPolicyEvaluation.login`): one
    /// dictionary lookup in the loaded BLOB's catalog for the stored credential's AAGUID (or, for U2F, its attestation
    /// certificate's key identifier).
    /// - Returns: the `authenticator_reported` event to record when the login proceeds with a warning, else `nil`.
    /// - Throws: 403 `access_denied` naming the status, carrying its event, under `refuse`.
    package func reportedAuthenticator(_ credential: Credential, userID: String, client: ClientConfiguration, now: Date)
        throws -> SecurityEvent?
    {
        let policy = client.authenticators
        guard policy.compromisedAtLogin != .allow, let snapshot = metadata?.current() else { return nil }
        switch AuthenticatorPolicyEvaluation.login(
            aaguid: credential.aaguid, keyIdentifier: credential.attestationKeyIdentifier, policy: policy,
            catalog: snapshot.catalog, now: now)
        {
        case .proceed:
            return nil
        case .warn(let reported):
            return reported.event(
                decision: "warned", clientID: client.clientID, userID: userID, credentialID: credential.credentialID,
                now: now)
        case .refuse(let reported):
            throw reported.refusal(
                clientID: client.clientID, userID: userID, credentialID: credential.credentialID, now: now)
        }
    }
}
