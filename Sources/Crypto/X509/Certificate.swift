import Foundation

/// An X.509 v1–v3 certificate (RFC 5280), parsed once into immutable fields, keeping the exact
/// DER it was parsed from. Parsing is not validation: use `TrustStore.validate` for the chain.
public struct Certificate: Sendable, Hashable {
    /// The DER bytes exactly as received.
    public let derEncoded: [UInt8]
    /// The version: 1, 2 or 3 (RFC 5280 §4.1.2.1).
    public let version: Int
    /// The serialNumber INTEGER contents, two's complement (RFC 5280 §4.1.2.2).
    public let serialNumber: [UInt8]
    /// The start of the validity period (RFC 5280 §4.1.2.5).
    public let notValidBefore: Date
    /// The end of the validity period (RFC 5280 §4.1.2.5).
    public let notValidAfter: Date
    /// The subject Name (RFC 5280 §4.1.2.6).
    public let subject: DistinguishedName
    /// The issuer Name (RFC 5280 §4.1.2.4).
    public let issuer: DistinguishedName
    /// The SubjectPublicKeyInfo DER (RFC 5280 §4.1.2.7).
    public let subjectPublicKeyInfoDER: [UInt8]
    /// The extensions in order (empty for v1/v2).
    public let extensions: [CertificateExtension]
    /// basicConstraints cA (RFC 5280 §4.2.1.9), nil when the extension is absent.
    public let isCA: Bool?
    /// The extended key usage purposes, dotted (RFC 5280 §4.2.1.12); empty when absent.
    public let extendedKeyUsage: [String]
    /// The signatureAlgorithm OID, dotted (e.g. "1.2.840.10045.4.3.2" for ecdsa-with-SHA256).
    public let signatureAlgorithmOID: String
    /// The parsed OpenSSL object, kept for chain validation.
    let x509: X509Object

    /// Parses one DER certificate.
    /// - Throws: `.invalidCertificate` for malformed DER, trailing bytes, an unknown version,
    ///   duplicate extensions, or malformed basicConstraints / extKeyUsage.
    public init(derEncoded: [UInt8]) throws(CryptoError) {
        let x509 = try X509Object.parse(derEncoded)
        let version = x509.version
        // RFC 5280 §4.1.2.1: Version ::= INTEGER { v1(0), v2(1), v3(2) }.
        guard (1...3).contains(version) else {
            throw CryptoError(.invalidCertificate, "unknown certificate version \(version)")
        }
        let validity = try x509.validity()
        let extensions = try x509.extensions()
        // RFC 5280 §4.2: a certificate MUST NOT include more than one instance of an extension.
        guard Set(extensions.map(\.oid)).count == extensions.count else {
            throw CryptoError(.invalidCertificate, "duplicate extension")
        }
        self.x509 = x509
        self.derEncoded = derEncoded
        self.version = version
        self.serialNumber = try x509.serialNumber()
        self.notValidBefore = validity.notBefore
        self.notValidAfter = validity.notAfter
        self.subject = try x509.subject()
        self.issuer = try x509.issuer()
        self.subjectPublicKeyInfoDER = try x509.subjectPublicKeyInfo()
        self.extensions = extensions
        self.signatureAlgorithmOID = try x509.signatureAlgorithmOID()
        let basicConstraints = extensions.first { $0.oid == CertificateExtension.OID.basicConstraints }
        self.isCA = try basicConstraints.map { ext throws(CryptoError) in try Self.cA(ext.value) }
        let usage = extensions.first { $0.oid == CertificateExtension.OID.extendedKeyUsage }
        self.extendedKeyUsage = try usage.map { ext throws(CryptoError) in try Self.purposes(ext.value) } ?? []
    }

    /// Certificates are equal when their DER encodings are.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool { lhs.derEncoded == rhs.derEncoded }

    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded) }

    /// The extension with `oid`, if present.
    public func `extension`(oid: String) -> CertificateExtension? {
        extensions.first { $0.oid == oid }
    }

    /// The subject public key.
    /// - Throws: `.invalidKey` / `.unsupportedAlgorithm` when the key is not one this module verifies with.
    public func publicKey() throws(CryptoError) -> PublicKey {
        try PublicKey(derRepresentation: subjectPublicKeyInfoDER)
    }

    /// Verifies `signature` over `message` with the subject key: ECDSA (DER, `hash`), Ed25519
    /// (`hash` ignored) or RSA PKCS#1 v1.5 (`hash`). False when the key is unusable.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8], hash: HashAlgorithm) -> Bool {
        guard let key = try? publicKey() else { return false }
        return key.isValidSignature(signature, for: message, hash: hash, rsaPadding: .pkcs1v15)
    }

    /// `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }`
    private static func cA(_ value: [UInt8]) throws(CryptoError) -> Bool {
        do throws(CryptoError) {
            let sequence = try DERNode.parse(value)
            guard sequence.hasTag(.universal, DERNode.UniversalTag.sequence) else {
                throw CryptoError(.invalidCertificate, "basicConstraints is not a SEQUENCE")
            }
            let fields = try sequence.children()
            guard let first = fields.first, first.hasTag(.universal, DERNode.UniversalTag.boolean) else {
                return false  // cA absent: DEFAULT FALSE
            }
            return try first.boolean()
        } catch {
            throw CryptoError(.invalidCertificate, "malformed basicConstraints: \(error.reason)")
        }
    }

    /// `ExtKeyUsageSyntax ::= SEQUENCE SIZE (1..MAX) OF KeyPurposeId`
    private static func purposes(_ value: [UInt8]) throws(CryptoError) -> [String] {
        do throws(CryptoError) {
            let sequence = try DERNode.parse(value)
            guard sequence.hasTag(.universal, DERNode.UniversalTag.sequence) else {
                throw CryptoError(.invalidCertificate, "extKeyUsage is not a SEQUENCE")
            }
            var oids: [String] = []
            for child in try sequence.children() { oids.append(try child.objectIdentifier()) }
            return oids
        } catch {
            throw CryptoError(.invalidCertificate, "malformed extKeyUsage: \(error.reason)")
        }
    }
}
