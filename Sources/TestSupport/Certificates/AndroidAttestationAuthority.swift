import Crypto
import Foundation

// @unchecked Sendable: immutable after init; `issue` writes only fresh files (serials from a locked counter).
/// A simulated Android hardware attestation authority: a test root → intermediate made with the `openssl` CLI, that
/// issues Keystore-like attestation chains whose leaf certifies a given key and carries a KeyDescription built from
/// `Properties` (Android Key and ID Attestation schema). The default properties are what a genuine StrongBox key
/// made for device-key enrolment shows; a test changes one of them.
public final class AndroidAttestationAuthority: @unchecked Sendable {
    /// The KeyDescription fields a test can change.
    public struct Properties: Sendable {
        /// `attestationChallenge`.
        public var challenge: [UInt8]
        /// `attestationSecurityLevel` and `keyMintSecurityLevel` (0 software, 1 TEE, 2 StrongBox).
        public var securityLevel = 2
        /// `purpose`.
        public var purposes = [2]
        /// `origin` (0 generated, 2 imported).
        public var origin = 0
        /// `userAuthType` (2 biometric), nil to leave it out.
        public var userAuthType: Int? = 2
        /// Whether `noAuthRequired` is present.
        public var noAuthRequired = false
        /// `authTimeout`, nil to leave it out (authentication per use).
        public var authTimeout: Int?
        /// `rootOfTrust.verifiedBootState` (0 verified).
        public var verifiedBootState = 0
        /// `attestationApplicationId` package name.
        public var packageName = "com.example.app"
        /// `attestationApplicationId` signature digest.
        public var signatureDigest: [UInt8] = [UInt8](repeating: 0xAB, count: 32)
        /// Validity of the leaf, in days from now.
        public var leafDays = 365

        /// The properties of a genuine enrolment key for `challenge`.
        public init(challenge: [UInt8]) { self.challenge = challenge }
    }

    /// The test root (what the server's `android_attestation_roots` must hold).
    public let root: Certificate
    /// The root as a PEM file's text.
    public var rootPEM: String { root.pemText }
    private let openssl: OpenSSLCommand
    private let intermediate: Certificate
    private let serial = Counter()

    /// A fresh root and intermediate.
    public init() throws {
        let openssl = try OpenSSLCommand()
        (root, intermediate) = try openssl.makeRootAndIntermediate(
            curve: "P-256", rootSubject: "/CN=Test Hardware Attestation Root",
            intermediateSubject: "/CN=Test Attestation Intermediate")
        self.openssl = openssl
    }

    /// The chain as the app sends it (leaf, intermediate, root; each DER) for a leaf certifying `leafKey` with
    /// `properties`.
    public func issue(leafKey: P256SigningKey, properties: Properties) throws -> [[UInt8]] {
        let name = "leaf-\(serial.next())"
        try openssl.write(
            "\(name).ext",
            "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                + "\(AndroidKeyDescription.oid)=DER:\(Hex.encode(Self.keyDescription(properties)))\n")
        try openssl.writePrivateKey("\(name).key", pkcs8: leafKey.pkcs8DERRepresentation)
        try openssl.run([
            "req", "-new", "-key", openssl.path("\(name).key"), "-out", openssl.path("\(name).csr"), "-subj",
            "/CN=Android Keystore Key",
        ])
        try openssl.run([
            "x509", "-req", "-in", openssl.path("\(name).csr"), "-CA", openssl.path("intermediate.pem"), "-CAkey",
            openssl.path("intermediate.key"), "-set_serial", String(100 + serial.next()), "-days",
            String(properties.leafDays), "-extfile", openssl.path("\(name).ext"), "-out", openssl.path("\(name).pem"),
        ])
        return [try openssl.certificate("\(name).pem").derEncoded, intermediate.derEncoded, root.derEncoded]
    }

    /// The KeyDescription DER: version 200 (KeyMint 2), the lists as a Keystore fills them (the application id in
    /// softwareEnforced, the key properties and root of trust in hardwareEnforced).
    public static func keyDescription(_ p: Properties) -> [UInt8] {
        typealias D = DERBuilder
        let applicationID = D.sequence([
            D.set([D.sequence([D.octetString(Array(p.packageName.utf8)), D.integer(1)])]),
            D.set([D.octetString(p.signatureDigest)]),
        ])
        let software = D.sequence([D.explicit(709, D.octetString(applicationID))])
        var hardware: [[UInt8]] = [D.explicit(1, D.set(p.purposes.map(D.integer)))]
        if p.noAuthRequired { hardware.append(D.explicit(503, D.null())) }
        if let type = p.userAuthType { hardware.append(D.explicit(504, D.integer(type))) }
        if let timeout = p.authTimeout { hardware.append(D.explicit(505, D.integer(timeout))) }
        hardware.append(D.explicit(702, D.integer(p.origin)))
        hardware.append(
            D.explicit(
                704,
                D.sequence([
                    D.octetString([UInt8](repeating: 0x11, count: 32)), D.boolean(true),
                    D.enumerated(p.verifiedBootState), D.octetString([UInt8](repeating: 0x22, count: 32)),
                ])))
        return D.sequence([
            D.integer(200), D.enumerated(p.securityLevel), D.integer(200), D.enumerated(p.securityLevel),
            D.octetString(p.challenge), D.octetString([]), software, D.sequence(hardware),
        ])
    }
}

/// A thread-safe counter for unique file names and serial numbers.
private final class Counter: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
