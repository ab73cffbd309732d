extension Certificate {
    /// The key identifier of the subject public key: SHA-1 of the subjectPublicKey BIT STRING's value (without
    /// tag, length and unused-bits octet), RFC 5280 §4.2.1.2 method (1). FIDO MDS3 names a U2F attestation
    /// certificate by it (`attestationCertificateKeyIdentifiers`). Empty only if the SubjectPublicKeyInfo that
    /// parsed at init no longer splits, which cannot happen for a parsed certificate.
    public var publicKeyIdentifier: [UInt8] {
        // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
        guard let info = try? DERNode.parse(subjectPublicKeyInfoDER), let fields = try? info.children(),
            fields.count == 2, let key = try? fields[1].bitStringBytes()
        else {
            return []
        }
        return Digest.hash(key, using: .sha1)
    }
}
