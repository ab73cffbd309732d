import Crypto
import Foundation
import JSON

/// The fields of an MDS3 metadata statement (FIDO Metadata Statement v3.0 §4) that passkeyd uses: its name and
/// icon for people, and the attestation roots for the trust decision (WebAuthn L3 §7.1 step 23).
package struct MetadataStatement: Sendable, Hashable {
    /// The authenticator's description in English, e.g. "YubiKey 5 Series".
    package let description: String
    /// The icon as MDS gives it: a `data:` URL (PNG), nil when absent.
    package let icon: String?
    /// The trust anchors of this authenticator's attestations (base64 DER in MDS).
    package let attestationRootCertificates: [Certificate]
    /// The attestation types it supports, e.g. `basic_full`, `attca`, `none`.
    package let attestationTypes: [String]
    /// The firmware version the statement describes.
    package let authenticatorVersion: Int?
    /// `fido2`, `u2f` or `uaf`.
    package let protocolFamily: String?

    /// A statement with these fields.
    package init(
        description: String, icon: String? = nil, attestationRootCertificates: [Certificate],
        attestationTypes: [String] = [], authenticatorVersion: Int? = nil, protocolFamily: String? = nil
    ) {
        self.description = description
        self.icon = icon
        self.attestationRootCertificates = attestationRootCertificates
        self.attestationTypes = attestationTypes
        self.authenticatorVersion = authenticatorVersion
        self.protocolFamily = protocolFamily
    }

    /// Parses a `metadataStatement` object.
    /// - Throws: `.malformed` naming the field: `description` missing or not a string, an
    ///   `attestationRootCertificates` entry that is not base64 DER of a certificate, a field of the wrong type.
    package init(json: JSONValue) throws(MetadataError) {
        let object = try MetadataJSON.object(json, "metadataStatement")
        self.description = try MetadataJSON.string(object, "description")
        self.icon = try MetadataJSON.optionalString(object, "icon")
        self.attestationTypes = try MetadataJSON.optionalStrings(object, "attestationTypes") ?? []
        self.authenticatorVersion = try MetadataJSON.optionalInt(object, "authenticatorVersion")
        self.protocolFamily = try MetadataJSON.optionalString(object, "protocolFamily")
        let roots = try MetadataJSON.optionalStrings(object, "attestationRootCertificates") ?? []
        var certificates: [Certificate] = []
        certificates.reserveCapacity(roots.count)
        for (index, text) in roots.enumerated() {
            // FIDO Metadata Statement §4: "base64-encoded (section 4 of [RFC4648]), DER-encoded X.509 certificate".
            guard let der = Data(base64Encoded: text) else {
                throw MetadataError(.malformed, "attestationRootCertificates[\(index)] is not base64")
            }
            do {
                certificates.append(try Certificate(derEncoded: [UInt8](der)))
            } catch {
                throw MetadataError(.malformed, "attestationRootCertificates[\(index)]: \(error.reason)")
            }
        }
        self.attestationRootCertificates = certificates
    }
}
