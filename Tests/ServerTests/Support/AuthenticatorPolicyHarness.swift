import Crypto
import Foundation
import HTTP
import JSON
import Metadata
import SoftwareClient
import Storage
import TestSupport
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// The passkey flows of `PasskeyHarness` with clients that carry authenticator policies, and the FIDO metadata of a
/// `MetadataTestAuthority`: BLOBs the test makes, loaded into the server's registry the way a start or a refresh
/// loads them (never a sleep), and attestation CAs whose `packed` full attestations chain to the roots a statement
/// lists.
struct AuthenticatorPolicyHarness {
    /// One test MDS (its `openssl` work is slow): shared by every test of the suite.
    static let shared = Result { try MetadataTestAuthority() }

    /// The AAGUID of the "certified" test authenticator.
    static let certifiedAAGUID: [UInt8] = [0xA1] + Array(repeating: 0x11, count: 15)
    /// The AAGUID of another test authenticator.
    static let otherAAGUID: [UInt8] = [0xB2] + Array(repeating: 0x22, count: 15)
    /// The all-zero AAGUID of a U2F authenticator.
    static let zeroAAGUID = [UInt8](repeating: 0, count: 16)

    let passkeys: PasskeyHarness
    let authority: MetadataTestAuthority

    /// The application with `clients` (the JSON array of `PASSKEYD_CLIENTS`) and `extra` overrides.
    init(clients: String, extra: [String: String] = [:]) throws {
        authority = try Self.shared.get()
        var overrides = extra
        overrides["PASSKEYD_CLIENTS"] = clients
        overrides["PASSKEYD_METADATA_ROOT_CERTIFICATE_FILE"] = try Self.rootFile.get()
        passkeys = try PasskeyHarness(overrides)
    }

    /// A client entry `client_id` with the webauthn and refresh grants, `attestation` and `authenticators`.
    static func client(_ id: String, attestation: String = "direct", authenticators: String = "{}") -> String {
        """
        {"client_id": "\(id)", "grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"],
         "attestation": "\(attestation)", "authenticators": \(authenticators)}
        """
    }

    /// A BLOB of `entries` signed by the test MDS, loaded into the server's registry.
    func load(_ entries: [JSONValue], serial: Int64 = 1) async throws {
        let jws = try authority.blob(serial: serial, nextUpdate: "2030-01-01", entries: entries)
        try await installMetadata(jws)
    }

    /// A passkey of the authenticator `aaguid` whose registrations carry a `packed` full attestation by `ca`'s leaf
    /// (or `none` without one).
    static func passkey(aaguid: [UInt8], ca: MetadataAttestationCA?) -> Passkey {
        var passkey = Passkey()
        passkey.authenticator.aaguid = aaguid
        if let ca {
            passkey.attestation = .packedFull(
                AttestationIdentity(certificates: [ca.leaf.derEncoded], key: .es256(ca.leafKey)))
        }
        return passkey
    }

    /// A sign-up of `passkey` for `email` with client `clientID`: the webauthn grant's answer, whatever it is.
    func signUp(_ passkey: inout Passkey, clientID: String, email: String = "ada@example.com") async throws -> Response
    {
        let challenge = try await passkeys.registerChallenge(email: email, clientID: clientID).jsonValue()
        let options = try #require(challenge["authn_params_public_key"], "\(challenge)")
        let session = try #require(challenge["auth_session"]?.stringValue)
        return await passkeys.token(session: session, response: try passkey.register(options), clientID: clientID)
    }

    /// A login of `passkey` with client `clientID`: the webauthn grant's answer.
    func logIn(_ passkey: inout Passkey, clientID: String) async throws -> Response {
        let challenge = try await passkeys.loginChallenge(clientID: clientID).jsonValue()
        let options = try #require(challenge["authn_params_public_key"])
        let session = try #require(challenge["auth_session"]?.stringValue)
        return await passkeys.token(session: session, response: try passkey.assert(options), clientID: clientID)
    }

    /// Every security event of `kind`, oldest first.
    func events(_ kind: SecurityEvent.Kind) async throws -> [SecurityEvent] {
        try await passkeys.context.store.read { try $0.securityEvents(after: 0, limit: 10_000) }
            .filter { $0.kind == kind.rawValue }
    }

    /// The number of users.
    func userCount() async throws -> Int {
        try await passkeys.context.store.read { try $0.users(afterID: nil, limit: 1_000) }.count
    }

    /// The JSON detail of `event`.
    static func detail(_ event: SecurityEvent) throws -> JSONValue {
        try JSONValue(parsing: try #require(event.detail))
    }
}

extension AuthenticatorPolicyHarness {
    /// The test MDS root as a PEM file, what `metadata.root_certificate_file` names (written once per process).
    static let rootFile = Result { () throws -> String in
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("passkeyd-test-mds-root-\(UUID()).pem")
        try Data(try shared.get().root.pemText.utf8).write(to: file)
        return file.path
    }

    /// `jws` verified, stored and picked up as a start or another node's `passkeyd metadata load` would have it:
    /// stored through `MetadataBLOBStorage`, then the registry's `refresh()` reads it from the store, verifying it again.
    func installMetadata(_ jws: String) async throws {
        let context = passkeys.context
        let now = passkeys.clock.now()
        let blob = try context.metadata.verifier.verify(jws, at: now)
        let outcome = try await MetadataBLOBStorage.store(blob, source: "test", now: now, in: context.store)
        try #require(outcome == .stored, "\(outcome)")
        await context.metadata.refresh()
        try #require(context.metadata.current()?.blob.serial == blob.serial, "the registry did not pick it up")
    }
}
