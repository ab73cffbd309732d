import Crypto
import DeviceKeys
import Foundation
import HTTP
import JSON
import Service
import Storage
import Tokens

extension DeviceKeyEndpoints {
    /// Longest `enrolment_nonce` accepted: ours are 43 characters (32 random bytes, base64url).
    package static let maximumNonceLength = 64
    /// Most certificates accepted in an Android `attestation` chain.
    package static let maximumChainLength = 8
    /// Longest base64 text of one attestation certificate or App Attest object.
    package static let maximumAttestationPartLength = 16 * 1024
    /// Longest base64 text of App Attest client data (ours is about 120 bytes).
    package static let maximumClientDataLength = 1024

    /// `POST /device-keys/enrolment-challenge` → 201 `{nonce, expires_in}`: a single-use server nonce for one
    /// enrolment, stored for the token's user. The app puts it in the platform attestation (Android
    /// `setAttestationChallenge(nonce bytes)`; App Attest client data) and sends it back as `enrolment_nonce`.
    package func issueEnrolmentChallenge(_ request: Request) async throws -> Response {
        let subject = try await authenticate(request)
        let now = context.clock.now()
        let lifetime = context.configuration.deviceKeys.challengeLifetimeSeconds
        let nonce = DeviceEnrolmentNonce(
            nonce: Base64URL.encode(try SecureRandom.bytes(count: 32)), userID: subject.sub,
            clientID: subject.clientID, createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        try await context.store.write { try $0.insertDeviceEnrolmentNonce(nonce) }
        return .json(["nonce": .string(nonce.nonce), "expires_in": JSONValue(lifetime)], status: 201)
    }

    /// The enrolment step-up (RFC 9470): a token for the device-key API whose login, by a user-verified passkey,
    /// is at most `device_keys.enrolment_max_age_seconds` old and minted the token itself (`FreshLoginRequirement`;
    /// a refresh-derived token never qualifies). A password login never qualifies, after a biometry change
    /// included: the replacement key is enrolled after a passkey login, as every key is. Every refusal is a security
    /// event.
    package func requireEnrolmentStepUp(_ subject: AuthenticatedSubject, deviceID: String) async throws {
        let now = context.clock.now()
        let requirement = FreshLoginRequirement(for: .deviceKeyEnrolment, in: context.configuration)
        guard let refusal = requirement.stepUpRefusal(subject, now: now, change: "Enrolling a device key") else {
            return
        }
        try await record(
            DeviceKeyAuditEvent.refusal(
                DeviceKeyAuditEvent.registered, refusal, now: now, subject: subject, keyID: nil, deviceID: deviceID,
                detail: [
                    JSONMember(key: "amr", value: .array(subject.authenticationMethods.map { .string($0) })),
                    JSONMember(
                        key: "auth_time", value: subject.authTime.map(RFC3339.timestamp) ?? .null),
                ]))
        throw refusal
    }

    /// Records a token refused by the device-key audience check when the same token is otherwise a valid one of
    /// this issuer (so the user it speaks for is known), then rethrows: a stolen token for another API shows in
    /// the user's history.
    package func authenticateForEnrolment(_ request: Request) async throws -> AuthenticatedSubject {
        do {
            return try await authenticate(request)
        } catch let error as TokenError where error.code == .invalidAudience {
            if let subject = try? await context.tokens.authenticate(request) {
                let refusal = OAuthError.token(error)
                try await record(
                    DeviceKeyAuditEvent.refusal(
                        DeviceKeyAuditEvent.registered, refusal, now: context.clock.now(), subject: subject,
                        keyID: nil,
                        detail: [JSONMember(key: "aud", value: .array(subject.audience.map { .string($0) }))]))
            }
            throw error
        }
    }

    /// The verified platform attestation of an enrolment under the client's `device_keys.attestation` policy:
    /// `nil` when the policy is `none` or (for `preferred`) none was sent. A present attestation must verify, and
    /// consumes the `enrolment_nonce` it carries.
    package func verifiedAttestation(
        _ body: JSONValue, platform: String, publicKey: DevicePublicKey, subject: AuthenticatedSubject, now: Date
    ) async throws -> VerifiedPlatformAttestation? {
        guard let client = context.configuration.client(id: subject.clientID),
            client.deviceKeyAttestation != .none
        else { return nil }
        guard let attestation = body["attestation"], !attestation.isNull else {
            if client.deviceKeyAttestation == .required { throw OAuthError.attestationRequired }
            return nil
        }
        let parameters = Self.parameters(body)
        let nonceText = try parameters.string("enrolment_nonce", maxLength: Self.maximumNonceLength)
        guard let nonce = Base64URL.decode(nonceText) else {
            throw OAuthError.invalidParameter("enrolment_nonce", reason: "is not base64url")
        }
        // Consumed before verifying, so a nonce is spent by any attempt (single use, whatever the outcome).
        let issued = try await context.store.write {
            try $0.consumeDeviceEnrolmentNonce(nonceText, userID: subject.sub, now: now)
        }
        guard let issued, issued.clientID == subject.clientID else {
            throw OAuthError.deviceKey(DeviceKeyError(.attestationChallengeMismatch, "unknown, used or expired nonce"))
        }
        do {
            switch platform {
            case "android":
                return try androidAttestation(attestation, nonce: nonce, publicKey: publicKey, client: client, now: now)
            case "ios":
                return try appAttestation(
                    attestation, nonce: nonceText, publicKey: publicKey, client: client, now: now)
            default:
                throw DeviceKeyError(.attestationMalformed, "no attestation format for platform \(platform)")
            }
        } catch let error as DeviceKeyError {
            throw OAuthError.deviceKey(error)
        }
    }

    /// Android: `attestation` is the certificate chain, leaf first, each base64 (standard or url-safe) DER.
    private func androidAttestation(
        _ value: JSONValue, nonce: [UInt8], publicKey: DevicePublicKey, client: ClientConfiguration, now: Date
    ) throws -> VerifiedPlatformAttestation {
        guard let entries = value.arrayValue, !entries.isEmpty, entries.count <= Self.maximumChainLength else {
            throw OAuthError.invalidParameter(
                "attestation", reason: "is not an array of 1 to \(Self.maximumChainLength) certificates")
        }
        var chain: [[UInt8]] = []
        for entry in entries {
            guard let text = entry.stringValue, text.utf8.count <= Self.maximumAttestationPartLength,
                let der = Self.base64(text)
            else { throw OAuthError.invalidParameter("attestation", reason: "holds a value that is not base64") }
            chain.append(der)
        }
        guard let android = client.android else {
            throw DeviceKeyError(.attestationWrongApp, "client \(client.clientID) has no Android app")
        }
        let expectations = AndroidKeyAttestationExpectations(
            challenge: nonce, publicKey: publicKey, packageName: android.packageName,
            signatureDigests: android.sha256CertFingerprints.compactMap(ClientConfiguration.fingerprintBytes),
            roots: TrustStore(roots: context.configuration.deviceKeys.androidAttestationRoots), now: now)
        return try AndroidKeyAttestationVerifier.verify(chain: chain, expecting: expectations)
    }

    /// iOS: `attestation` is `{"attestation_object": base64 of DCAppAttestService.attestKey's object,
    /// "client_data": base64url of the exact client data bytes whose SHA-256 was the clientDataHash}`.
    private func appAttestation(
        _ value: JSONValue, nonce: String, publicKey: DevicePublicKey, client: ClientConfiguration, now: Date
    ) throws -> VerifiedPlatformAttestation {
        guard let members = value.objectMembers, members.count == 2,
            let objectText = value["attestation_object"]?.stringValue,
            objectText.utf8.count <= Self.maximumAttestationPartLength,
            let clientDataText = value["client_data"]?.stringValue,
            clientDataText.utf8.count <= Self.maximumClientDataLength
        else {
            throw OAuthError.invalidParameter(
                "attestation", reason: "is not an object of the strings attestation_object and client_data")
        }
        guard let object = Self.base64(objectText), let clientData = Self.base64(clientDataText) else {
            throw OAuthError.invalidParameter("attestation", reason: "holds a value that is not base64")
        }
        guard let ios = client.ios else {
            throw DeviceKeyError(.attestationWrongApp, "client \(client.clientID) has no iOS app")
        }
        let expectations = AppleAppAttestExpectations(
            nonce: nonce, publicKey: publicKey, appIDs: [ios.appID],
            allowsDevelopment: client.appAttestEnvironment == .development,
            roots: TrustStore(roots: context.configuration.deviceKeys.appAttestRoots), now: now)
        return try AppleAppAttestVerifier.verify(
            attestationObject: object, clientData: clientData, expecting: expectations)
    }

    /// Standard base64 (what Android's `Base64.encodeToString` gives) or base64url.
    package static func base64(_ text: String) -> [UInt8]? {
        if let bytes = Base64URL.decode(text) { return bytes }
        return Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
