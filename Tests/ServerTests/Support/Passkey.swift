import HTTP
import JSON
import SoftwareClient
import TestSupport

/// One passkey on TestSupport's `VirtualAuthenticator`, answering the server's options in the JSON an app posts.
/// A thin adapter so the server tests can stay in `JSONValue`: every byte (authenticator data, COSE key,
/// signature, clientDataJSON) comes from `VirtualAuthenticator`, and each defect is a `CeremonyTampering`.
struct Passkey: Sendable {
    /// The software authenticator: UP and UV, BE and BS clear (a single-device credential), counting by one.
    var authenticator = VirtualAuthenticator(flags: .securityKey)
    /// The key type of the credential `register` makes.
    let algorithm: CredentialAlgorithm
    /// The origin written into clientDataJSON.
    var origin = "https://example.com"
    /// The credential, once `register` has made it; tests may replace it (e.g. with an unknown ID).
    var credential: VirtualCredential?
    /// The attestation statement `register` attaches (`none` by default, what synced passkeys send).
    var attestation = AttestationChoice.none

    init(_ algorithm: CredentialAlgorithm = .es256) {
        self.algorithm = algorithm
    }

    /// The credential ID (empty before `register`).
    var credentialID: [UInt8] { credential?.id ?? [] }
    /// The user handle learnt at registration (`user.id` of the creation options; empty before `register`).
    var userHandle: [UInt8] { credential?.userHandle ?? [] }

    /// Answers `authn_params_public_key` of /passkey/register with a new credential and `attestation`.
    mutating func register(_ options: JSONValue, _ tampering: CeremonyTampering = .none) throws -> JSONValue {
        let parsed = try PublicKeyCredentialCreationOptions(json: options.serialized())
        // WebAuthn L3 §6.3.2 step 3: an authenticator holding an excluded credential refuses (InvalidStateError).
        if let credential, parsed.excludeCredentialIDs.contains(credential.id), tampering.reusedCredentialID == nil {
            throw HarnessFailure("InvalidStateError: the authenticator holds an excluded credential")
        }
        let (made, response) = try authenticator.makeCredential(
            options: parsed, origin: origin, algorithm: algorithm, attestation: attestation, tampering: tampering)
        credential = made
        return try JSONValue(parsing: Array(response.toJSON().utf8))
    }

    /// Answers `authn_params_public_key` of /passkey/challenge with the registered credential; its counter
    /// advances unless `tampering.signCount` fixes the reported value.
    mutating func assert(_ options: JSONValue, _ tampering: CeremonyTampering = .none) throws -> JSONValue {
        guard var signing = credential else { throw HarnessFailure("assert before register") }
        let parsed = try PublicKeyCredentialRequestOptions(json: options.serialized())
        let response = try authenticator.getAssertion(
            options: parsed, origin: origin, credential: &signing, tampering: tampering)
        credential = signing
        return try JSONValue(parsing: Array(response.toJSON().utf8))
    }
}
