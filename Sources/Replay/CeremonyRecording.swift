import Crypto
import Foundation
import JSON
import WebAuthn

/// Writes what a relying party judged as a recording in the format `RecordedCeremony` reads
/// (Fixtures/ceremonies/FORMAT.md, version 1, with passkeyd's additions): the inputs the verifier was given and
/// its outcome in `expect`, so that `passkeyd replay` judges the recording again and must reach the same outcome.
/// What `passkeyd serve --record DIR` writes (docs/recording.md). It holds no token, session or personal data:
/// only the challenge, the RP's side of the ceremony and the credential the client sent.
public enum CeremonyRecording {
    /// Written as `source`.
    public static let source = "passkeyd serve --record"

    /// The relying party's side of an authentication as the token endpoint holds it: the stored credential record
    /// (its COSE_Key as stored, parsed per request), and the options it sent.
    public struct AuthenticationSide: Sendable {
        /// The RP ID.
        public let rpID: String
        /// The origins the ceremony may come from.
        public let originPolicy: OriginPolicy
        /// The challenge the RP issued.
        public let challenge: [UInt8]
        /// Whether the RP required user verification.
        public let userVerificationRequired: Bool
        /// The stored COSE_Key, as stored.
        public let storedKey: [UInt8]
        /// The stored signature counter.
        public let storedSignCount: UInt32
        /// The stored backup flags, when the RP compares them.
        public let storedBackupState: BackupStateResult.Stored?
        /// The user handle of the credential's owner, when the RP compares it.
        public let userHandle: [UInt8]?

        /// Creates the side.
        public init(
            rpID: String, originPolicy: OriginPolicy, challenge: [UInt8], userVerificationRequired: Bool,
            storedKey: [UInt8], storedSignCount: UInt32, storedBackupState: BackupStateResult.Stored?,
            userHandle: [UInt8]?
        ) {
            self.rpID = rpID
            self.originPolicy = originPolicy
            self.challenge = challenge
            self.userVerificationRequired = userVerificationRequired
            self.storedKey = storedKey
            self.storedSignCount = storedSignCount
            self.storedBackupState = storedBackupState
            self.userHandle = userHandle
        }

        /// The verifier's expectations of this side (the stored key parsed, as per request).
        public func expectations() throws(WebAuthnError) -> AuthenticationExpectations {
            AuthenticationExpectations(
                challenge: challenge, rpID: RelyingPartyID(rpID), originPolicy: originPolicy,
                userVerificationRequired: userVerificationRequired, credentialPublicKey: try COSEKey(bytes: storedKey),
                storedSignCount: storedSignCount, storedBackupState: storedBackupState, userHandle: userHandle)
        }
    }

    /// A judged registration (WebAuthn L3 §7.1): `response` is the PublicKeyCredential as the client sent it (JSON),
    /// `outcome` the verifier's and `CeremonyPolicy`'s verdict on it.
    public static func registration(
        name: String, expectations: RegistrationExpectations, response: JSONValue,
        outcome: Result<VerifiedRegistration, WebAuthnError>
    ) -> JSONValue {
        var members = common(
            name: name, ceremony: "registration", rpID: expectations.rpID.value, policy: expectations.originPolicy,
            challenge: expectations.challenge, userVerificationRequired: expectations.userVerificationRequired,
            verifyAt: expectations.verificationTime)
        members.append(
            JSONMember(
                key: "allowedAlgorithms", value: .array(expectations.allowedAlgorithms.map { JSONValue($0.rawValue) })))
        members.append(JSONMember(key: "response", value: response))
        let expect: JSONValue
        switch outcome {
        case .success(let verified):
            expect = .object([
                JSONMember(key: "ok", value: true),
                JSONMember(key: "fmt", value: .string(verified.format)),
                JSONMember(key: "credentialId", value: .string(Base64URL.encode(verified.credentialID))),
                JSONMember(key: "aaguid", value: .string(verified.aaguidString)),
                JSONMember(key: "signCount", value: JSONValue(Int(verified.signCount))),
                JSONMember(
                    key: "credentialPublicKey", value: .string(Base64URL.encode(verified.credentialPublicKey.rawBytes))),
                JSONMember(key: "userVerified", value: .bool(verified.userVerified)),
                JSONMember(key: "backupEligible", value: .bool(verified.backupEligible)),
                JSONMember(key: "backedUp", value: .bool(verified.backedUp)),
            ])
        case .failure(let error):
            expect = refusal(error)
        }
        members.append(JSONMember(key: "expect", value: expect))
        return .object(members)
    }

    /// A judged authentication (WebAuthn L3 §7.2): the stored credential record in `side`, the assertion as the
    /// client sent it (JSON), the verdict; `verifyAt` is the instant it was judged.
    public static func authentication(
        name: String, side: AuthenticationSide, verifyAt: Date, response: JSONValue,
        outcome: Result<VerifiedAssertion, WebAuthnError>
    ) -> JSONValue {
        var members = common(
            name: name, ceremony: "authentication", rpID: side.rpID, policy: side.originPolicy,
            challenge: side.challenge, userVerificationRequired: side.userVerificationRequired, verifyAt: verifyAt)
        members.append(JSONMember(key: "response", value: response))
        members.append(JSONMember(key: "credentialPublicKey", value: .string(Base64URL.encode(side.storedKey))))
        members.append(JSONMember(key: "storedSignCount", value: JSONValue(Int(side.storedSignCount))))
        if let stored = side.storedBackupState {
            members.append(JSONMember(key: "storedBackupEligible", value: .bool(stored.backupEligible)))
            members.append(JSONMember(key: "storedBackedUp", value: .bool(stored.backedUp)))
        }
        if let userHandle = side.userHandle {
            members.append(JSONMember(key: "userHandle", value: .string(Base64URL.encode(userHandle))))
        }
        let expect: JSONValue
        switch outcome {
        case .success(let verified):
            expect = .object([
                JSONMember(key: "ok", value: true),
                JSONMember(key: "newSignCount", value: JSONValue(Int(verified.newSignCount))),
                JSONMember(key: "userVerified", value: .bool(verified.userVerified)),
            ])
        case .failure(let error):
            expect = refusal(error)
        }
        members.append(JSONMember(key: "expect", value: expect))
        return .object(members)
    }

    /// `verifyAt`'s spelling: RFC 3339 §5.6 in whole seconds, UTC (what `RecordedCeremony`'s reader parses).
    public static func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    private static func common(
        name: String, ceremony: String, rpID: String, policy: OriginPolicy, challenge: [UInt8],
        userVerificationRequired: Bool, verifyAt: Date
    ) -> [JSONMember] {
        var members = [
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "source", value: .string(source)),
            JSONMember(key: "ceremony", value: .string(ceremony)),
            JSONMember(key: "rpId", value: .string(rpID)),
            JSONMember(key: "origins", value: .array(policy.allowedOrigins.map { .string($0) })),
            JSONMember(key: "challenge", value: .string(Base64URL.encode(challenge))),
            JSONMember(key: "userVerificationRequired", value: .bool(userVerificationRequired)),
            JSONMember(key: "verifyAt", value: .string(instant(verifyAt))),
        ]
        if policy.allowsCrossOrigin {
            members.append(JSONMember(key: "allowCrossOrigin", value: true))
            members.append(JSONMember(key: "topOrigins", value: .array(policy.allowedTopOrigins.map { .string($0) })))
        }
        return members
    }

    /// A refusal's `expect`: its code (compared on replay) and its reason (informative).
    private static func refusal(_ error: WebAuthnError) -> JSONValue {
        .object([
            JSONMember(key: "ok", value: false),
            JSONMember(key: "errorCode", value: .string(error.code.rawValue)),
            JSONMember(key: "error", value: .string(error.reason)),
        ])
    }
}
