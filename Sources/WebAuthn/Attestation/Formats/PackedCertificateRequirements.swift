import Crypto

/// WebAuthn L3 §8.2.1 "Certificate Requirements for Packed Attestation Statements".
enum PackedCertificateRequirements {
    /// X.520 attribute OIDs for the subject fields §8.2.1 requires.
    static let countryOID = "2.5.4.6"
    static let organizationOID = "2.5.4.10"
    static let organizationalUnitOID = "2.5.4.11"
    static let commonNameOID = "2.5.4.3"
    /// id-fido-gen-ce-aaguid (WebAuthn L3 §8.2.1).
    static let aaguidExtensionOID = "1.3.6.1.4.1.45724.1.1.4"
    static let requiredOrganizationalUnit = "Authenticator Attestation"

    /// Checks `certificate` against §8.2.1 and its AAGUID extension against `aaguid`.
    static func check(_ certificate: Certificate, aaguid: [UInt8]) throws(WebAuthnError) {
        // §8.2.1: Version MUST be set to 3 (ASN.1 INTEGER value 2).
        guard certificate.version == 3 else {
            throw fault("version is \(certificate.version), must be 3")
        }
        let subject = certificate.subject
        // §8.2.1 Subject-C: ISO 3166 code specifying the country where the vendor is incorporated.
        guard let country = subject.values(forOID: countryOID).first, country.count == 2,
            country.allSatisfy({ $0.isASCII && $0.isLetter })
        else {
            throw fault("subject C missing or not an ISO 3166 code")
        }
        // §8.2.1 Subject-O: legal name of the authenticator vendor.
        guard let organization = subject.values(forOID: organizationOID).first, !organization.isEmpty else {
            throw fault("subject O missing")
        }
        // §8.2.1 Subject-OU: literal string "Authenticator Attestation".
        guard subject.values(forOID: organizationalUnitOID).contains(requiredOrganizationalUnit) else {
            throw fault("subject OU is not \"Authenticator Attestation\"")
        }
        // §8.2.1 Subject-CN: a UTF8String of the vendor's choosing.
        guard let commonName = subject.values(forOID: commonNameOID).first, !commonName.isEmpty else {
            throw fault("subject CN missing")
        }
        // §8.2.1: the Basic Constraints extension MUST have the CA component set to false.
        guard certificate.isCA == false else {
            throw fault("basicConstraints missing or CA is true")
        }
        // §8.2.1: id-fido-gen-ce-aaguid, when present, MUST NOT be critical and holds the AAGUID as a
        // 16-byte OCTET STRING; §8.2 step 2: it MUST equal the aaguid in authenticatorData.
        if let extensionValue = certificate.extension(oid: aaguidExtensionOID) {
            guard !extensionValue.isCritical else {
                throw fault("id-fido-gen-ce-aaguid is marked critical")
            }
            let certificateAAGUID: [UInt8]
            do {
                certificateAAGUID = try DERNode.parse(extensionValue.value).octetString()
            } catch {
                throw fault("id-fido-gen-ce-aaguid is not an OCTET STRING: \(error)")
            }
            guard certificateAAGUID == aaguid else {
                throw fault("id-fido-gen-ce-aaguid differs from the authenticator data AAGUID")
            }
        }
    }

    private static func fault(_ reason: String, line: Int = #line) -> WebAuthnError {
        WebAuthnError(.invalidAttestationCertificate, "packed §8.2.1: \(reason)", line: line)
    }
}
