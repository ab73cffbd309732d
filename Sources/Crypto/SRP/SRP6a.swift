/// SRP-6a (RFC 5054 §2.5–2.6 over RFC 2945 §3), pure: the caller supplies every random secret, so each result
/// can be replayed (the RFC 5054 Appendix B vectors are the tests).
///
/// The conventions are those of RFC 5054 as the PyPI `srp` package implements them in its RFC 5054 mode
/// (`srp.rfc5054_enable()`), which is the interoperability target:
/// - k = H(N | PAD(g)), u = H(PAD(A) | PAD(B)) (RFC 5054 §2.5.3, §2.6); PAD() left-pads to the length of N;
/// - S = (A · v^u)^b mod N on the server, (B − k·g^x)^(a + u·x) mod N on the client (RFC 5054 §2.6);
/// - K = H(S) over the minimal bytes of S (RFC 2945 §3);
/// - M1 = H(H(N) xor H(PAD(g)) | H(I) | s | A | B | K) and M2 = H(A | M1 | K) (RFC 2945 §3), with A and B as their
///   minimal big-endian bytes. RFC 2945 writes H(g); the `srp` package pads g there too in RFC 5054 mode, and
///   interoperating with it is what counts.
/// Big numbers are OpenSSL BN, exponentiations constant-time (`SRPArithmetic`).
public struct SRP6a: Sendable, Hashable {
    /// N and g.
    public let group: SRPGroup
    /// H.
    public let hash: HashAlgorithm

    /// SRP-6a over `group` with hash function `hash`.
    public init(group: SRPGroup, hash: HashAlgorithm) {
        self.group = group
        self.hash = hash
    }

    /// The length of N in bytes: the width of PAD() and the longest A, B or verifier.
    public var width: Int { group.prime.count }

    // MARK: public values

    /// Refuses a verifier that is not in 1..<N (zero, or not reduced modulo N).
    /// - Throws: `.invalidKey`.
    public func checkVerifier(_ verifier: [UInt8]) throws(CryptoError) {
        try checkGroupElement(verifier, name: "verifier")
    }

    /// Refuses a client public value A with A ≡ 0 (mod N) (RFC 5054 §2.5.4: "the host MUST abort") or A ≥ N
    /// (never produced by g^a mod N; refusing it keeps A in one spelling).
    /// - Throws: `.invalidKey`.
    public func checkClientPublic(_ clientPublic: [UInt8]) throws(CryptoError) {
        try checkGroupElement(clientPublic, name: "A")
    }

    private func checkGroupElement(_ value: [UInt8], name: String) throws(CryptoError) {
        let arithmetic = try SRPArithmetic(prime: group.prime)
        guard try arithmetic.isBelowModulus(value) else { throw CryptoError(.invalidKey, "\(name) is not below N") }
        guard !(try arithmetic.reduce(value)).isEmpty else { throw CryptoError(.invalidKey, "\(name) is 0 mod N") }
    }

    // MARK: server

    /// k = H(N | PAD(g)) (RFC 5054 §2.5.3).
    public func multiplier() -> [UInt8] {
        H(group.prime, pad(group.generator))
    }

    /// B = (k·v + g^b) mod N (RFC 5054 §2.5.3), minimal bytes. `secret` is b: at least 32 random bytes.
    public func serverPublic(verifier: [UInt8], secret: [UInt8]) throws(CryptoError) -> [UInt8] {
        let arithmetic = try SRPArithmetic(prime: group.prime)
        return try arithmetic.multiplyAdd(multiplier(), verifier, try arithmetic.power(group.generator, secret))
    }

    /// u = H(PAD(A) | PAD(B)) (RFC 5054 §2.6).
    public func scramblingParameter(clientPublic: [UInt8], serverPublic: [UInt8]) -> [UInt8] {
        H(pad(clientPublic), pad(serverPublic))
    }

    /// The server's premaster secret S = (A · v^u)^b mod N (RFC 5054 §2.6), minimal bytes.
    public func serverPremasterSecret(
        clientPublic: [UInt8], verifier: [UInt8], serverSecret: [UInt8], serverPublic: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let arithmetic = try SRPArithmetic(prime: group.prime)
        let u = scramblingParameter(clientPublic: clientPublic, serverPublic: serverPublic)
        let base = try arithmetic.multiply(clientPublic, try arithmetic.power(verifier, u))
        return try arithmetic.power(base, serverSecret)
    }

    /// K = H(S) (RFC 2945 §3), S as its minimal bytes.
    public func sessionKey(premasterSecret: [UInt8]) -> [UInt8] {
        H(minimal(premasterSecret))
    }

    /// M1 = H(H(N) xor H(PAD(g)) | H(I) | s | A | B | K) (RFC 2945 §3; see the type's note on PAD(g)).
    public func clientProof(
        identity: String, salt: [UInt8], clientPublic: [UInt8], serverPublic: [UInt8], sessionKey: [UInt8]
    ) -> [UInt8] {
        let hashN = H(group.prime)
        let hashG = H(pad(group.generator))
        let mixed = zip(hashN, hashG).map { $0 ^ $1 }
        return H(mixed, H(Array(identity.utf8)), salt, minimal(clientPublic), minimal(serverPublic), sessionKey)
    }

    /// M2 = H(A | M1 | K) (RFC 2945 §3).
    public func serverProof(clientPublic: [UInt8], clientProof: [UInt8], sessionKey: [UInt8]) -> [UInt8] {
        H(minimal(clientPublic), clientProof, sessionKey)
    }

    /// The server's side of the proof exchange: M2 when `presentedProof` equals M1 (compared in constant time,
    /// `CRYPTO_memcmp`), nil otherwise. A and the verifier must have passed their checks.
    public func verifyClientProof(
        _ presentedProof: [UInt8], identity: String, salt: [UInt8], verifier: [UInt8], clientPublic: [UInt8],
        serverSecret: [UInt8], serverPublic: [UInt8]
    ) throws(CryptoError) -> [UInt8]? {
        let premaster = try serverPremasterSecret(
            clientPublic: clientPublic, verifier: verifier, serverSecret: serverSecret, serverPublic: serverPublic)
        let key = sessionKey(premasterSecret: premaster)
        let expected = clientProof(
            identity: identity, salt: salt, clientPublic: clientPublic, serverPublic: serverPublic, sessionKey: key)
        guard ConstantTime.equals(expected, presentedProof) else { return nil }
        return serverProof(clientPublic: clientPublic, clientProof: expected, sessionKey: key)
    }

    // MARK: client (tests, and the shape of what the app computes)

    /// x = H(s | H(I | ":" | P)) (RFC 5054 §2.4).
    public func privateKey(identity: String, password: String, salt: [UInt8]) -> [UInt8] {
        H(salt, H(Array(identity.utf8) + Array(":".utf8) + Array(password.utf8)))
    }

    /// v = g^x mod N (RFC 5054 §2.4), minimal bytes.
    public func verifier(privateKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        try SRPArithmetic(prime: group.prime).power(group.generator, privateKey)
    }

    /// A = g^a mod N (RFC 5054 §2.6), minimal bytes.
    public func clientPublic(secret: [UInt8]) throws(CryptoError) -> [UInt8] {
        try SRPArithmetic(prime: group.prime).power(group.generator, secret)
    }

    /// The client's premaster secret S = (B − k·g^x)^(a + u·x) mod N (RFC 5054 §2.6), minimal bytes.
    public func clientPremasterSecret(
        serverPublic: [UInt8], privateKey: [UInt8], clientSecret: [UInt8], clientPublic: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let arithmetic = try SRPArithmetic(prime: group.prime)
        let u = scramblingParameter(clientPublic: clientPublic, serverPublic: serverPublic)
        let kgx = try arithmetic.multiply(multiplier(), try arithmetic.power(group.generator, privateKey))
        let base = try arithmetic.subtract(serverPublic, kgx)
        return try arithmetic.power(base, try arithmetic.integerMultiplyAdd(u, privateKey, clientSecret))
    }

    // MARK: encoding

    /// PAD(): `value` left-padded with zeros to the length of N (RFC 5054 §2.1); longer values are unchanged.
    public func pad(_ value: [UInt8]) -> [UInt8] {
        let stripped = minimal(value)
        return [UInt8](repeating: 0, count: max(0, width - stripped.count)) + stripped
    }

    /// The minimal big-endian spelling (no leading zero bytes).
    func minimal(_ value: [UInt8]) -> [UInt8] {
        Array(value.drop { $0 == 0 })
    }

    /// H over the concatenation of `parts`.
    private func H(_ parts: [UInt8]...) -> [UInt8] {
        Digest.hash(Array(parts.joined()), using: hash)
    }
}
