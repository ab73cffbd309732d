import Configuration
import Crypto
import DeviceKeys
import Foundation
import JSON
import Storage

/// The platform attestation of a device-key enrolment, under the client's `device_keys.attestation` policy: Android
/// Key Attestation or App Attest, carrying the enrolment nonce the server issued (`DeviceKeyEnrolment.issueNonce`).
package struct EnrolmentAttestation: Sendable {
    package let context: ServerContext

    /// Most certificates accepted in an Android `attestation` chain.
    package static let maximumChainLength = 8
    /// Longest base64 text of one attestation certificate or App Attest object.
    package static let maximumAttestationPartLength = 16 * 1024
    /// Longest base64 text of App Attest client data (ours is about 120 bytes).
    package static let maximumClientDataLength = 1024

    /// The verified attestation of `request`: `nil` when the policy is `none` or (for `preferred`) none was sent.
    /// A present attestation must verify, and consumes the `enrolment_nonce` it carries.
    package func verified(
        _ request: DeviceKeyEnrolmentRequest, publicKey: DevicePublicKey, subject: AuthenticatedSubject, now: Date
    ) async throws -> VerifiedPlatformAttestation? {
        guard let client = context.configuration.client(id: subject.clientID),
            client.deviceKeyAttestation != .none
        else { return nil }
        guard let attestation = request.attestation else {
            if client.deviceKeyAttestation == .required { throw OAuthError.attestationRequired }
            return nil
        }
        let nonceText = try request.enrolmentNonce.get()
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
            switch request.platform {
            case .android:
                return try androidAttestation(attestation, nonce: nonce, publicKey: publicKey, client: client, now: now)
            case .ios:
                return try appAttestation(
                    attestation, nonce: nonceText, publicKey: publicKey, client: client, now: now)
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

    /// Creates the value from its stored properties.
    package init(context: ServerContext) {
        self.context = context
    }
}
