import CBOR
import Crypto
import Foundation
import JSON
import WebAuthn

/// Verifies an Apple App Attest attestation (`DCAppAttestService.attestKey(_:clientDataHash:)`) for a device-key
/// enrolment, following Apple's "Validating apps that connect to your server", "Verify the attestation", steps 1–9.
///
/// App Attest attests the app instance's own App Attest key, not the Secure Enclave key being enrolled (the Secure
/// Enclave has no key attestation); the enrolled key and the server nonce are bound through the client data, whose
/// SHA-256 the attestation signs:
///
/// ```
/// clientData = UTF-8 JSON object, exactly the members
///   "nonce":             the enrolment nonce text (POST /device-keys/enrolment-challenge)
///   "public_key_sha256": base64url(SHA-256(the enrolled key's 65-byte X9.62 point 04‖X‖Y))
/// ```
public enum AppleAppAttestVerifier {
    /// The attestation object's `fmt`.
    public static let format = "apple-appattest"
    /// Production: "appattest" followed by seven 0x00 bytes (step 8).
    static let productionAAGUID = Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
    /// Development: "appattestdevelop" (step 8).
    static let developmentAAGUID = Array("appattestdevelop".utf8)

    /// Runs every check and says which failed first.
    /// - Parameters:
    ///   - attestationObject: the CBOR attestation object `{fmt, attStmt: {x5c, receipt}, authData}`.
    ///   - clientData: the exact bytes whose SHA-256 the app passed as `clientDataHash`.
    /// - Throws: a `DeviceKeyError` `attestation…` code.
    public static func verify(
        attestationObject: [UInt8], clientData: [UInt8], expecting expected: AppleAppAttestExpectations
    ) throws(DeviceKeyError) -> VerifiedPlatformAttestation {
        let object: AttestationObject
        do {
            object = try AttestationObject(bytes: attestationObject)
        } catch {
            throw DeviceKeyError(.attestationMalformed, "attestation object: \(error)")
        }
        guard object.format == format else {
            throw DeviceKeyError(.attestationMalformed, "fmt is \(object.format.prefix(32)), not \(format)")
        }
        let authenticatorData = object.authenticatorData
        guard let credential = authenticatorData.attestedCredentialData else {
            throw DeviceKeyError(.attestationMalformed, "authData has no attested credential data")
        }
        // The receipt is Apple's, for the fraud-metric service; it is not checked here.
        guard object.statement[text: "receipt"]?.bytesValue != nil else {
            throw DeviceKeyError(.attestationMalformed, "attStmt.receipt is missing or not bytes")
        }

        // Step 1: x5c (credCert first, then the intermediate) validates to Apple's App Attestation root.
        let certificates = try AttestationChain.certificates(try chain(object.statement))
        try AttestationChain.validate(certificates, roots: expected.roots, at: expected.now)
        guard let credCert = certificates.first else { throw DeviceKeyError(.attestationMalformed, "empty x5c") }

        // Steps 2–4: nonce = SHA-256(authData ‖ SHA-256(clientData)) is the credCert extension
        // 1.2.840.113635.100.8.2, SEQUENCE { [1] EXPLICIT OCTET STRING }.
        guard let nonceExtension = credCert.extension(oid: CertificateExtension.OID.appleNonce) else {
            throw DeviceKeyError(.attestationMalformed, "credCert has no nonce extension")
        }
        let certifiedNonce: [UInt8]
        do {
            certifiedNonce = try AppleAttestation.nonce(fromExtensionValue: nonceExtension.value)
        } catch {
            throw DeviceKeyError(.attestationMalformed, "nonce extension: \(error)")
        }
        let nonce = Digest.sha256(authenticatorData.rawBytes + Digest.sha256(clientData))
        guard ConstantTime.equals(certifiedNonce, nonce) else {
            throw DeviceKeyError(
                .attestationChallengeMismatch, "credCert nonce is not SHA-256(authData ‖ SHA-256(clientData))")
        }

        // Steps 5 and 9: the key identifier, SHA-256 of credCert's key as an X9.62 uncompressed point, is the
        // credentialId; and the credential public key is that key.
        guard case .ec(let certifiedKey)? = try? credCert.publicKey() else {
            throw DeviceKeyError(.attestationCredentialMismatch, "credCert key is not an EC key")
        }
        guard ConstantTime.equals(Digest.sha256(certifiedKey.x963Representation), credential.credentialID),
            credential.credentialPublicKey.publicKey.isSameKey(as: .ec(certifiedKey))
        else {
            throw DeviceKeyError(.attestationCredentialMismatch, "credentialId is not SHA-256 of credCert's key")
        }

        // Step 6: rpIdHash is SHA-256 of the app's App ID (<team id>.<bundle id>).
        guard
            expected.appIDs.contains(where: {
                ConstantTime.equals(Digest.sha256(Array($0.utf8)), authenticatorData.rpIDHash)
            })
        else {
            throw DeviceKeyError(.attestationWrongApp, "rpIdHash is not SHA-256 of the client's App ID")
        }

        // Step 7: the counter of a fresh attestation is 0.
        guard authenticatorData.signCount == 0 else {
            throw DeviceKeyError(.attestationCounterNotZero, "counter is \(authenticatorData.signCount)")
        }

        // Step 8: aaguid is the production one, or the development one when the client accepts it.
        let level: String
        if credential.aaguid == productionAAGUID {
            level = "appattest"
        } else if credential.aaguid == developmentAAGUID, expected.allowsDevelopment {
            level = "appattestdevelop"
        } else {
            throw DeviceKeyError(
                .attestationWrongEnvironment,
                "aaguid \(credential.aaguid.map { String(format: "%02x", $0) }.joined()) is not accepted")
        }

        // The client data (now known to be what the attestation signed) binds this enrolment and this key.
        try checkClientData(clientData, expecting: expected)
        return VerifiedPlatformAttestation(platform: VerifiedPlatformAttestation.appleAppAttest, level: level)
    }

    /// `attStmt.x5c`: an array of DER certificates.
    static func chain(_ statement: CBORValue) throws(DeviceKeyError) -> [[UInt8]] {
        guard let entries = statement[text: "x5c"]?.arrayValue else {
            throw DeviceKeyError(.attestationMalformed, "attStmt.x5c is missing or not an array")
        }
        var chain: [[UInt8]] = []
        for entry in entries {
            guard let der = entry.bytesValue else {
                throw DeviceKeyError(.attestationMalformed, "attStmt.x5c holds a value that is not bytes")
            }
            chain.append(der)
        }
        return chain
    }

    /// The client data is a JSON object with exactly `nonce` (the enrolment nonce) and `public_key_sha256`
    /// (base64url SHA-256 of the enrolled key's X9.62 point).
    static func checkClientData(_ clientData: [UInt8], expecting expected: AppleAppAttestExpectations)
        throws(DeviceKeyError)
    {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: clientData)
        } catch {
            throw DeviceKeyError(.attestationMalformed, "client data is not JSON: \(error)")
        }
        guard let members = value.objectMembers, Set(members.map(\.key)) == ["nonce", "public_key_sha256"],
            members.count == 2, let nonce = value["nonce"]?.stringValue,
            let keyHash = value["public_key_sha256"]?.stringValue
        else {
            throw DeviceKeyError(
                .attestationMalformed, "client data is not an object of the strings nonce and public_key_sha256")
        }
        guard ConstantTime.equals(Array(nonce.utf8), Array(expected.nonce.utf8)) else {
            throw DeviceKeyError(.attestationChallengeMismatch, "client data nonce is not the enrolment nonce")
        }
        let enrolledKeyHash = Base64URL.encode(Digest.sha256(expected.publicKey.x963Representation))
        guard ConstantTime.equals(Array(keyHash.utf8), Array(enrolledKeyHash.utf8)) else {
            throw DeviceKeyError(.attestationKeyMismatch, "client data public_key_sha256 is another key's")
        }
    }
}
