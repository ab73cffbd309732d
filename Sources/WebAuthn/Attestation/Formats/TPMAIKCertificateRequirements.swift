import Crypto

/// WebAuthn L3 §8.3.1 "TPM Attestation Statement Certificate Requirements", checked on the AIK
/// certificate (`x5c[0]`), plus the AAGUID extension rule of §8.3.2.
///
/// Chain-to-root validation is not done here: the registration verifier validates the trust path
/// against the configured anchors.
enum TPMAIKCertificateRequirements {
    /// tcg-at-tpmManufacturer (TCG EK Credential Profile §3.2.9).
    static let tpmManufacturerOID = "2.23.133.2.1"
    /// tcg-at-tpmModel.
    static let tpmModelOID = "2.23.133.2.2"
    /// tcg-at-tpmVersion.
    static let tpmVersionOID = "2.23.133.2.3"
    /// tcg-kp-AIKCertificate: the extended key usage an AIK certificate must carry.
    static let aikCertificateKeyPurposeOID = "2.23.133.8.3"
    /// id-ce-subjectAltName (RFC 5280 §4.2.1.6).
    static let subjectAltNameOID = "2.5.29.17"
    /// id-fido-gen-ce-aaguid (WebAuthn L3 §8.3.2, FIDO metadata).
    static let fidoAAGUIDOID = "1.3.6.1.4.1.45724.1.1.4"

    /// Throws the first requirement `certificate` does not meet.
    /// - Parameter aaguid: the AAGUID of the authenticator data's attested credential data.
    static func check(_ certificate: Certificate, aaguid: [UInt8]) throws(WebAuthnError) {
        // WebAuthn L3 §8.3.1: "Version MUST be set to 3."
        guard certificate.version == 3 else {
            throw WebAuthnError(.tpmCertificateVersion, "AIK certificate version is \(certificate.version)")
        }
        // WebAuthn L3 §8.3.1: "Subject field MUST be set to empty."
        guard certificate.subject.isEmpty else {
            throw WebAuthnError(.tpmCertificateSubjectNotEmpty, "AIK certificate subject is not empty")
        }
        // WebAuthn L3 §8.3.1: "The Subject Alternative Name extension MUST be set as defined in
        // [TPMv2-EK-Profile] section 3.2.9" — critical (the subject is empty, RFC 5280 §4.2.1.6), with a
        // directoryName holding TPM manufacturer, model and version.
        try checkSubjectAltName(certificate)
        // WebAuthn L3 §8.3.1: "The Extended Key Usage extension MUST contain the OID 2.23.133.8.3."
        guard certificate.extendedKeyUsage.contains(aikCertificateKeyPurposeOID) else {
            throw WebAuthnError(.tpmCertificateExtendedKeyUsage, "AIK certificate EKU lacks tcg-kp-AIKCertificate")
        }
        // WebAuthn L3 §8.3.1: "The Basic Constraints extension MUST have the CA component set to false."
        guard certificate.isCA == false else {
            throw WebAuthnError(.tpmCertificateBasicConstraints, "AIK certificate basicConstraints absent or CA")
        }
        // WebAuthn L3 §8.3.2: "If aikCert contains an extension with OID 1.3.6.1.4.1.45724.1.1.4
        // (id-fido-gen-ce-aaguid) verify that the value of this extension matches the aaguid in authenticatorData."
        if let aaguidExtension = certificate.extension(oid: fidoAAGUIDOID) {
            let value: [UInt8]
            do {
                value = try DERNode.parse(aaguidExtension.value).octetString()
            } catch {
                throw WebAuthnError(.tpmAAGUIDMismatch, "AIK AAGUID extension is not an OCTET STRING: \(error)")
            }
            guard ConstantTime.equals(value, aaguid) else {
                throw WebAuthnError(.tpmAAGUIDMismatch, "AIK AAGUID extension differs from authenticator data")
            }
        }
    }

    /// TCG EK Credential Profile §3.2.9: a critical subjectAltName whose directoryName names the TPM
    /// manufacturer, model and version (each non-empty).
    private static func checkSubjectAltName(_ certificate: Certificate) throws(WebAuthnError) {
        guard let subjectAltName = certificate.extension(oid: subjectAltNameOID) else {
            throw WebAuthnError(.tpmCertificateSubjectAltName, "AIK certificate has no subjectAltName")
        }
        guard subjectAltName.isCritical else {
            throw WebAuthnError(.tpmCertificateSubjectAltName, "AIK subjectAltName is not critical")
        }
        let attributes: [String: String]
        do {
            attributes = try directoryNameAttributes(subjectAltName.value)
        } catch {
            throw WebAuthnError(.tpmCertificateSubjectAltName, "AIK subjectAltName does not parse: \(error)")
        }
        for oid in [tpmManufacturerOID, tpmModelOID, tpmVersionOID] {
            guard let value = attributes[oid], !value.isEmpty else {
                throw WebAuthnError(.tpmCertificateSubjectAltName, "AIK subjectAltName lacks \(oid)")
            }
        }
    }

    /// Every attribute of every directoryName in a GeneralNames value, by dotted OID.
    ///
    /// ```
    /// GeneralNames ::= SEQUENCE OF GeneralName           -- RFC 5280 §4.2.1.6
    /// GeneralName  ::= ... directoryName [4] EXPLICIT Name ...
    /// Name ::= SEQUENCE OF RelativeDistinguishedName     -- RFC 5280 §4.1.2.4
    /// RelativeDistinguishedName ::= SET OF SEQUENCE { type OBJECT IDENTIFIER, value ANY }
    /// ```
    /// TPMs put the three attributes either in one multi-valued RDN or in three RDNs; both are read.
    static func directoryNameAttributes(_ generalNamesDER: [UInt8]) throws(CryptoError) -> [String: String] {
        var attributes: [String: String] = [:]
        let generalNames = try DERNode.parse(generalNamesDER)
        for generalName in try generalNames.children()
        where generalName.hasTag(.contextSpecific, 4) {
            for name in try generalName.children() {
                for relativeName in try name.children() {
                    for attribute in try relativeName.children() {
                        let pair = try attribute.children()
                        guard pair.count == 2 else {
                            throw CryptoError(.invalidDER, "AttributeTypeAndValue has \(pair.count) elements")
                        }
                        attributes[try pair[0].objectIdentifier()] = try pair[1].string()
                    }
                }
            }
        }
        return attributes
    }
}
