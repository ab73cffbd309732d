import Crypto
import Storage

/// The SRP-6a password fallback's shared parts: the protocol parameters and the spelling of its counters.
package enum PasswordFallback {
    /// RFC 5054's 3072-bit group (the RFC 3526 prime, g = 5) with SHA-256, built once.
    private static let parameters = Result { () throws(CryptoError) -> SRP6a in
        SRP6a(group: try .rfc5054Group3072(), hash: .sha256)
    }

    /// The SRP-6a parameters every login and enrolment uses (a 500 only if OpenSSL could not give the prime).
    package static func srp() throws -> SRP6a {
        do {
            return try parameters.get()
        } catch {
            throw OAuthError.bug("SRP group: \(error)")
        }
    }

    /// Longest base64url text accepted for A or a verifier: 384 bytes (the 3072-bit N) are 512 characters.
    package static let maximumGroupElementLength = 512
    /// Longest identity accepted, in bytes.
    package static let maximumIdentityLength = 256
    /// The one salt length enrolment accepts, in bytes (NIST SP 800-63B §5.1.1.2 asks at least 32 bits; this is
    /// 128), and the length of the stand-in salt of an unknown identity: a salt of any other length would tell an
    /// observer of `/srp/challenge` that the identity is enrolled.
    package static let saltLength = 16
    /// The name of the server secret that keys the stand-in salts (in the store, so every node agrees).
    package static let fakeSaltSecretName = "srp_fake_salt"
    /// Length of b, the server's secret exponent (RFC 5054 §2.5.3 asks at least 256 bits).
    package static let serverSecretLength = 32
}
