import Crypto
import Foundation
import JSON
import Metadata

// @unchecked Sendable: the certificates and keys are immutable after init; the `openssl` calls write only fresh
// files (names from a locked counter).
/// A test FIDO Metadata Service: a test MDS root → intermediate → BLOB signers (RS256 and ES256) made with the
/// `openssl` CLI (`OpenSSLCommand`), that signs BLOBs from entries a test gives and issues CRLs; and attestation CAs
/// (root → leaf with `id-fido-gen-ce-aaguid`) for a `packed` full attestation that chains to a root a statement
/// lists. Verify its BLOBs with `MetadataBLOBVerifier(roots: [authority.root])` at a time within the signers'
/// validity (from now to ten years on).
package final class MetadataTestAuthority: @unchecked Sendable {
    /// The JWS algorithms a test BLOB can be signed with.
    package enum Algorithm: String, Sendable, CaseIterable {
        /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), a 2048-bit RSA signer.
        case rs256 = "RS256"
        /// ECDSA P-256 with SHA-256 (RFC 7518 §3.4).
        case es256 = "ES256"
    }

    /// Which CA of the test MDS chain issues a CRL.
    package enum CRLIssuer: String, Sendable {
        /// The MDS root (its CRL covers the intermediate).
        case root
        /// The intermediate (its CRL covers the signers).
        case intermediate
    }

    /// The test MDS root (what `metadata.root_certificate_file` must hold).
    package let root: Certificate
    /// The intermediate CA between the root and the signers.
    package let intermediate: Certificate
    /// The RS256 signer's certificate.
    package let rsaSigner: Certificate
    /// The ES256 signer's certificate.
    package let ecSigner: Certificate
    private let rsaKey: RSASigningKey
    private let ecKey: P256SigningKey
    private let openssl: OpenSSLCommand
    private let lock = NSLock()
    private var issued = 0

    /// A fresh root, intermediate and the two signers (valid from now for ten years).
    package init() throws {
        let openssl = try OpenSSLCommand()
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try openssl.run(
            ["req", "-x509"] + ec + [
                "-keyout", openssl.path("root.key"), "-out", openssl.path("root.pem"), "-subj",
                "/CN=Test MDS Root/O=passkeyd tests", "-days", "7300", "-addext",
                "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try openssl.write("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n")
        try openssl.write("signer.ext", "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n")
        try openssl.run(
            ["req", "-new"] + ec + [
                "-keyout", openssl.path("intermediate.key"), "-out", openssl.path("intermediate.csr"), "-subj",
                "/CN=Test MDS Intermediate/O=passkeyd tests",
            ])
        try openssl.run([
            "x509", "-req", "-in", openssl.path("intermediate.csr"), "-CA", openssl.path("root.pem"), "-CAkey",
            openssl.path("root.key"), "-set_serial", "2", "-days", "7000", "-extfile", openssl.path("ca.ext"), "-out",
            openssl.path("intermediate.pem"),
        ])
        let rsaKey = try RSASigningKey(bits: 2048)
        let ecKey = try P256SigningKey()
        for (name, pkcs8, serial) in [
            ("rsa-signer", rsaKey.pkcs8DERRepresentation, "3"), ("ec-signer", ecKey.pkcs8DERRepresentation, "4"),
        ] {
            try openssl.writePrivateKey("\(name).key", pkcs8: pkcs8)
            try openssl.run([
                "req", "-new", "-key", openssl.path("\(name).key"), "-out", openssl.path("\(name).csr"), "-subj",
                "/CN=Test MDS BLOB Signer \(name)/O=passkeyd tests",
            ])
            try openssl.run([
                "x509", "-req", "-in", openssl.path("\(name).csr"), "-CA", openssl.path("intermediate.pem"), "-CAkey",
                openssl.path("intermediate.key"), "-set_serial", serial, "-days", "3650", "-extfile",
                openssl.path("signer.ext"), "-out", openssl.path("\(name).pem"),
            ])
        }
        self.root = try openssl.certificate("root.pem")
        self.intermediate = try openssl.certificate("intermediate.pem")
        self.rsaSigner = try openssl.certificate("rsa-signer.pem")
        self.ecSigner = try openssl.certificate("ec-signer.pem")
        self.rsaKey = rsaKey
        self.ecKey = ecKey
        self.openssl = openssl
    }

    /// The signer certificate of `algorithm`.
    package func signer(_ algorithm: Algorithm) -> Certificate {
        algorithm == .rs256 ? rsaSigner : ecSigner
    }

    /// The `x5c` header value for `algorithm`'s signer: leaf, intermediate (base64 DER; the root is left out, as
    /// the FIDO MDS leaves it out).
    package func x5c(_ algorithm: Algorithm) -> [String] {
        [signer(algorithm), intermediate].map { Data($0.derEncoded).base64EncodedString() }
    }

    /// A signed BLOB (compact JWS): header `{alg, typ: JWT, x5c}`, payload `{legalHeader, no, nextUpdate,
    /// entries}`.
    /// - Parameter nextUpdate: `YYYY-MM-DD`, as MDS writes it.
    package func blob(
        serial: Int64, nextUpdate: String, entries: [JSONValue], alg: Algorithm = .es256,
        legalHeader: String = "Test metadata: no legal meaning."
    ) throws -> String {
        let header: JSONValue = .object([
            JSONMember(key: "alg", value: .string(alg.rawValue)), JSONMember(key: "typ", value: .string("JWT")),
            JSONMember(key: "x5c", value: .array(x5c(alg).map(JSONValue.string))),
        ])
        let payload: JSONValue = .object([
            JSONMember(key: "legalHeader", value: .string(legalHeader)),
            JSONMember(key: "no", value: .number(String(serial))),
            JSONMember(key: "nextUpdate", value: .string(nextUpdate)),
            JSONMember(key: "entries", value: .array(entries)),
        ])
        return try jws(header: header, payload: payload.serialized(), signWith: alg)
    }

    /// `blob(serial:nextUpdate:entries:alg:legalHeader:)` with `nextUpdate` the UTC day `nextUpdate` falls on.
    package func blob(
        serial: Int64, nextUpdate: Date, entries: [JSONValue], alg: Algorithm = .es256,
        legalHeader: String = "Test metadata: no legal meaning."
    ) throws -> String {
        try blob(
            serial: serial, nextUpdate: MetadataDay.format(nextUpdate), entries: entries, alg: alg,
            legalHeader: legalHeader)
    }

    /// A compact JWS over `header` and `payload` (each serialised as given) signed by `signWith`'s signer, for
    /// tests that need a header or payload no valid BLOB has.
    package func jws(header: JSONValue, payload: [UInt8], signWith: Algorithm) throws -> String {
        let signingInput = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload)
        let signature: [UInt8]
        switch signWith {
        case .rs256:
            signature = try rsaKey.signature(for: Array(signingInput.utf8), hash: .sha256, padding: .pkcs1v15)
        case .es256:
            // RFC 7518 §3.4: JOSE carries R || S, not DER.
            signature = try ECDSASignature.rawRepresentation(
                fromDER: ecKey.signature(for: Array(signingInput.utf8)), curve: .p256)
        }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// A CRL issued by `issuer`, valid for `days` from now, listing `revoking` (certificates that `issuer` issued).
    package func crl(issuer: CRLIssuer, revoking: [Certificate] = [], days: Int = 30) throws
        -> CertificateRevocationList
    {
        // `openssl ca` keeps revocations in a text database: a fresh one per CRL, so CRLs are independent.
        let name = "crl-\(next())"
        try openssl.write("\(name).index", "")
        try openssl.write("\(name).number", "01\n")
        try openssl.write(
            "\(name).cnf",
            "[ca]\ndefault_ca = test\n[test]\ndatabase = \(openssl.path("\(name).index"))\n"
                + "crlnumber = \(openssl.path("\(name).number"))\ndefault_md = sha256\n")
        let ca = [
            "-config", openssl.path("\(name).cnf"), "-cert", openssl.path("\(issuer.rawValue).pem"), "-keyfile",
            openssl.path("\(issuer.rawValue).key"),
        ]
        for (index, certificate) in revoking.enumerated() {
            try openssl.write("\(name)-revoked-\(index).pem", certificate.pemText)
            try openssl.run(["ca"] + ca + ["-revoke", openssl.path("\(name)-revoked-\(index).pem")])
        }
        try openssl.run(["ca", "-gencrl"] + ca + ["-crldays", String(days), "-out", openssl.path("\(name).pem")])
        return try CertificateRevocationList(pem: String(contentsOfFile: openssl.path("\(name).pem"), encoding: .utf8))
    }

    /// A fresh attestation CA for `aaguid`: a root and a `packed` attestation leaf it issues (WebAuthn L3 §8.2.1
    /// requirements, `id-fido-gen-ce-aaguid` = `aaguid`), with the leaf's key.
    package func attestationCA(aaguid: [UInt8]) throws -> MetadataAttestationCA {
        let name = "attestation-\(next())"
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try openssl.run(
            ["req", "-x509"] + ec + [
                "-keyout", openssl.path("\(name)-root.key"), "-out", openssl.path("\(name)-root.pem"), "-subj",
                "/CN=Test Attestation Root \(name)/O=passkeyd tests", "-days", "7300", "-addext",
                "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
            ])
        // WebAuthn L3 §8.2.1: version 3; subject C, O, OU "Authenticator Attestation", CN; CA false; the AAGUID in
        // id-fido-gen-ce-aaguid as an OCTET STRING, not critical.
        let aaguidExtension = DERBuilder.octetString(aaguid)
        try openssl.write(
            "\(name).ext",
            "basicConstraints=critical,CA:FALSE\n"
                + "\(CertificateExtension.OID.fidoAAGUID)=DER:\(Hex.encode(aaguidExtension))\n")
        let leafKey = try P256SigningKey()
        try openssl.writePrivateKey("\(name).key", pkcs8: leafKey.pkcs8DERRepresentation)
        try openssl.run([
            "req", "-new", "-key", openssl.path("\(name).key"), "-out", openssl.path("\(name).csr"), "-subj",
            "/C=US/O=passkeyd tests/OU=Authenticator Attestation/CN=Test Authenticator \(name)",
        ])
        try openssl.run([
            "x509", "-req", "-in", openssl.path("\(name).csr"), "-CA", openssl.path("\(name)-root.pem"), "-CAkey",
            openssl.path("\(name)-root.key"), "-set_serial", String(1000 + next()), "-days", "3650", "-extfile",
            openssl.path("\(name).ext"), "-out", openssl.path("\(name).pem"),
        ])
        return MetadataAttestationCA(
            root: try openssl.certificate("\(name)-root.pem"), leaf: try openssl.certificate("\(name).pem"),
            leafKey: leafKey, aaguid: aaguid)
    }

    /// A BLOB entry for a FIDO2 authenticator (`aaguid`, 16 bytes) with one status report per element of
    /// `reports` and a statement listing `attestationRoots`.
    package static func entry(
        aaguid: [UInt8], reports: [(status: AuthenticatorStatus, effectiveDate: String?)],
        description: String = "Test Authenticator", attestationRoots: [Certificate] = [], icon: String? = nil
    ) -> JSONValue {
        var statement: [JSONMember] = [
            JSONMember(key: "aaguid", value: .string(UUIDText.format(aaguid))),
            JSONMember(key: "description", value: .string(description)),
            JSONMember(key: "authenticatorVersion", value: .number("1")),
            JSONMember(key: "protocolFamily", value: .string("fido2")), JSONMember(key: "schema", value: .number("3")),
            JSONMember(key: "attestationTypes", value: .array([.string("basic_full")])),
            JSONMember(key: "attestationRootCertificates", value: rootsJSON(attestationRoots)),
        ]
        if let icon { statement.append(JSONMember(key: "icon", value: .string(icon))) }
        return .object([
            JSONMember(key: "aaguid", value: .string(UUIDText.format(aaguid))),
            JSONMember(key: "metadataStatement", value: .object(statement)),
            JSONMember(key: "statusReports", value: reportsJSON(reports)),
            JSONMember(key: "timeOfLastStatusChange", value: .string(reports.last?.effectiveDate ?? "2020-01-01")),
        ])
    }

    /// A BLOB entry for a FIDO2 authenticator with one status report `status` effective 2020-01-01.
    package static func entry(
        aaguid: [UInt8], status: AuthenticatorStatus = .fidoCertifiedL1, description: String = "Test Authenticator",
        attestationRoots: [Certificate] = [], icon: String? = nil
    ) -> JSONValue {
        entry(
            aaguid: aaguid, reports: [(status, "2020-01-01")], description: description,
            attestationRoots: attestationRoots, icon: icon)
    }

    /// A BLOB entry for a U2F authenticator named by attestation certificate key identifiers (hex).
    package static func entry(
        keyIdentifiers: [String], reports: [(status: AuthenticatorStatus, effectiveDate: String?)],
        description: String = "Test U2F Authenticator", attestationRoots: [Certificate] = []
    ) -> JSONValue {
        let statement: [JSONMember] = [
            JSONMember(
                key: "attestationCertificateKeyIdentifiers", value: .array(keyIdentifiers.map(JSONValue.string))),
            JSONMember(key: "description", value: .string(description)),
            JSONMember(key: "protocolFamily", value: .string("u2f")), JSONMember(key: "schema", value: .number("3")),
            JSONMember(key: "attestationTypes", value: .array([.string("basic_full")])),
            JSONMember(key: "attestationRootCertificates", value: rootsJSON(attestationRoots)),
        ]
        return .object([
            JSONMember(
                key: "attestationCertificateKeyIdentifiers", value: .array(keyIdentifiers.map(JSONValue.string))),
            JSONMember(key: "metadataStatement", value: .object(statement)),
            JSONMember(key: "statusReports", value: reportsJSON(reports)),
            JSONMember(key: "timeOfLastStatusChange", value: .string(reports.last?.effectiveDate ?? "2020-01-01")),
        ])
    }

    /// `statusReports` as MDS writes them.
    private static func reportsJSON(_ reports: [(status: AuthenticatorStatus, effectiveDate: String?)]) -> JSONValue {
        .array(
            reports.map { report in
                var members = [JSONMember(key: "status", value: .string(report.status.rawValue))]
                if let date = report.effectiveDate {
                    members.append(JSONMember(key: "effectiveDate", value: .string(date)))
                }
                return .object(members)
            })
    }

    /// `attestationRootCertificates`: base64 (not base64url) DER.
    private static func rootsJSON(_ roots: [Certificate]) -> JSONValue {
        .array(roots.map { .string(Data($0.derEncoded).base64EncodedString()) })
    }

    private func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        issued += 1
        return issued
    }
}

/// An attestation CA made by `MetadataTestAuthority.attestationCA(aaguid:)`.
package struct MetadataAttestationCA: Sendable {
    /// The attestation root a statement lists in `attestationRootCertificates`.
    package let root: Certificate
    /// The attestation certificate (`attStmt.x5c[0]` of a `packed` full attestation).
    package let leaf: Certificate
    /// The attestation certificate's private key, which signs the attestation statement.
    package let leafKey: P256SigningKey
    /// The AAGUID in the leaf's `id-fido-gen-ce-aaguid` extension.
    package let aaguid: [UInt8]
}
