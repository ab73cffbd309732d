import JSON

/// A `POST /device-keys` body past its `device_id`, as the endpoint parsed it (`DeviceKeyEnrolment.register`).
package struct DeviceKeyEnrolmentRequest: Sendable {
    /// `platform`.
    package let platform: DevicePlatform
    /// `public_key`, base64url-decoded: the bytes the platform exported, not yet imported.
    package let publicKey: [UInt8]
    /// `attestation` as sent (`nil` when absent or `null`): the platform's attestation, read by
    /// `EnrolmentAttestation` under the client's policy.
    package let attestation: JSONValue?
    /// `enrolment_nonce`, read only when an attestation is verified.
    package let enrolmentNonce: RequestFields<String>

    /// Creates the value from its stored properties.
    package init(
        platform: DevicePlatform, publicKey: [UInt8], attestation: JSONValue?, enrolmentNonce: RequestFields<String>
    ) {
        self.platform = platform
        self.publicKey = publicKey
        self.attestation = attestation
        self.enrolmentNonce = enrolmentNonce
    }
}
