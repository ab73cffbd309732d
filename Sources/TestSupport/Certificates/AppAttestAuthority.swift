import SoftwareClient
import CBOR
import Crypto
import Foundation

// @unchecked Sendable: immutable after init; `attest` writes only fresh files (names from a locked counter).
/// A simulated Apple App Attestation CA: a test root → intermediate made with the `openssl` CLI, that issues App
/// Attest attestation objects (`fmt` `apple-appattest`, `attStmt {x5c: [credCert, intermediate], receipt}`,
/// `authData`) as `DCAppAttestService.attestKey(_:clientDataHash:)` returns them. The default properties are what a
/// genuine production attestation of the app `ABCDE12345.com.example.app` shows; a test changes one of them.
public final class AppAttestAuthority: @unchecked Sendable {
    /// The attestation fields a test can change.
    public struct Properties: Sendable {
        /// The App ID whose SHA-256 is the rpIdHash.
        public var appID = "ABCDE12345.com.example.app"
        /// The aaguid: production by default.
        public var aaguid = AppAttestAuthority.productionAAGUID
        /// The counter (0 for an attestation).
        public var counter: UInt32 = 0
        /// The credentialId; nil: SHA-256 of the App Attest key's X9.62 point, as Apple makes it.
        public var credentialID: [UInt8]?
        /// The key credCert certifies; nil: the App Attest key itself.
        public var certifiedKey: P256SigningKey?
        /// The nonce put in credCert; nil: SHA-256(authData ‖ SHA-256(clientData)), as Apple makes it.
        public var certifiedNonce: [UInt8]?
        /// Validity of credCert, in days from now.
        public var leafDays = 365

        /// The properties of a genuine production attestation.
        public init() {}
    }

    /// "appattest" followed by seven 0x00 bytes.
    public static let productionAAGUID = Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
    /// "appattestdevelop".
    public static let developmentAAGUID = Array("appattestdevelop".utf8)

    /// The test root (what the server's `app_attest_roots` must hold).
    public let root: Certificate
    private let openssl: OpenSSLCommand
    private let intermediate: Certificate
    private let lock = NSLock()
    private var issued = 0

    /// A fresh root and intermediate.
    public init() throws {
        let openssl = try OpenSSLCommand()
        (root, intermediate) = try openssl.makeRootAndIntermediate(
            curve: "P-384", rootSubject: "/CN=Test App Attestation Root CA/O=passkeyd",
            intermediateSubject: "/CN=Test App Attestation CA 1/O=passkeyd")
        self.openssl = openssl
    }

    /// The client data format of device-key enrolment (docs/device-keys.md): `{"nonce": <enrolment nonce>,
    /// "public_key_sha256": base64url(SHA-256(the enrolled key's X9.62 point))}`, as an app would write it.
    public static func clientData(nonce: String, enrolledKey x963: [UInt8]) -> [UInt8] {
        Array("{\"nonce\":\"\(nonce)\",\"public_key_sha256\":\"\(Base64URL.encode(Digest.sha256(x963)))\"}".utf8)
    }

    /// An attestation object by the App Attest key `appAttestKey` over `clientData` with `properties`.
    public func attest(clientData: [UInt8], appAttestKey: P256SigningKey, properties: Properties = Properties())
        throws -> [UInt8]
    {
        let number = next()
        // authData: rpIdHash flags(AT) counter aaguid credentialIdLength credentialId COSE key (WebAuthn L3 §6.1).
        let credentialID = properties.credentialID ?? Digest.sha256(appAttestKey.publicKey.x963Representation)
        var attested = properties.aaguid
        attested += [UInt8(truncatingIfNeeded: credentialID.count >> 8), UInt8(truncatingIfNeeded: credentialID.count)]
        attested += credentialID
        attested += try CredentialSigningKey.es256(appAttestKey).coseKeyBytes()
        let authData = VirtualAuthenticator.authenticatorData(
            rpID: properties.appID, flags: .attestedCredentialData, signCount: properties.counter,
            attestedCredentialData: attested)
        let nonce = properties.certifiedNonce ?? Digest.sha256(authData + Digest.sha256(clientData))
        let name = "credcert-\(number)"
        // 1.2.840.113635.100.8.2: SEQUENCE { [1] EXPLICIT OCTET STRING nonce }.
        let nonceExtension = DERBuilder.sequence([DERBuilder.explicit(1, DERBuilder.octetString(nonce))])
        try openssl.write(
            "\(name).ext",
            "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                + "1.2.840.113635.100.8.2=DER:\(Hex.encode(nonceExtension))\n")
        try openssl.writePrivateKey(
            "\(name).key", pkcs8: (properties.certifiedKey ?? appAttestKey).pkcs8DERRepresentation)
        try openssl.run([
            "req", "-new", "-key", openssl.path("\(name).key"), "-out", openssl.path("\(name).csr"), "-subj",
            "/CN=\(Hex.encode(credentialID))/OU=AAA Certification/O=Apple Inc./ST=California",
        ])
        try openssl.run([
            "x509", "-req", "-in", openssl.path("\(name).csr"), "-CA", openssl.path("intermediate.pem"), "-CAkey",
            openssl.path("intermediate.key"), "-set_serial", String(100 + number), "-days",
            String(properties.leafDays), "-extfile", openssl.path("\(name).ext"), "-out", openssl.path("\(name).pem"),
        ])
        let credCert = try openssl.certificate("\(name).pem")
        let statement: CBORValue = .map([
            CBORMapEntry(
                key: .text("x5c"), value: .array([.bytes(credCert.derEncoded), .bytes(intermediate.derEncoded)])),
            CBORMapEntry(key: .text("receipt"), value: .bytes(Array("test receipt \(number)".utf8))),
        ])
        return try CBOREncoder.encode(
            .map([
                CBORMapEntry(key: .text("fmt"), value: .text("apple-appattest")),
                CBORMapEntry(key: .text("attStmt"), value: statement),
                CBORMapEntry(key: .text("authData"), value: .bytes(authData)),
            ]))
    }

    private func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        issued += 1
        return issued
    }
}
