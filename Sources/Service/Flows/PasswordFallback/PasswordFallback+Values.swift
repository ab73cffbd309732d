import Crypto

// The values the password fallback's flows take, each checked once where the request is read (in the order the
// endpoint reads its parameters, so a request with several faults is refused for the first one): only a checked
// value reaches `PasswordVerifierEnrolment`, `SRPChallenge` or `SRPLogin`.
extension PasswordFallback {
    /// An enrolment's salt: exactly `saltLength` bytes, the stand-in salt's length — a salt of another length would
    /// mark the identity as enrolled.
    package struct Salt: Sendable, Equatable {
        package let bytes: [UInt8]

        /// - Throws: 400 `invalid_request` (`salt_length`) for another length.
        package init(_ bytes: [UInt8]) throws {
            guard bytes.count == PasswordFallback.saltLength else {
                throw OAuthError(
                    .invalidRequest, "Invalid salt: must be \(PasswordFallback.saltLength) bytes.",
                    logCode: "salt_length", reason: "\(bytes.count) bytes")
            }
            self.bytes = bytes
        }
    }

    /// A group element of the 3072-bit group: the client's public value A, or a verifier v.
    package struct GroupElement: Sendable, Equatable {
        package let bytes: [UInt8]

        /// A as `/srp/challenge` accepts it (RFC 5054 §2.5.4: A % N == 0 is refused).
        /// - Throws: 400 `invalid_request` when longer than N, 0 mod N or not below N.
        package static func clientPublic(_ bytes: [UInt8]) throws -> GroupElement {
            try GroupElement(bytes, name: "A") { srp, value throws(CryptoError) in try srp.checkClientPublic(value) }
        }

        /// A verifier as enrolment accepts it: in 1..<N.
        /// - Throws: 400 `invalid_request` when longer than N or outside 1..<N.
        package static func verifier(_ bytes: [UInt8]) throws -> GroupElement {
            try GroupElement(bytes, name: "verifier") { srp, value throws(CryptoError) in try srp.checkVerifier(value) }
        }

        private init(
            _ bytes: [UInt8], name: String, check: (SRP6a, [UInt8]) throws(CryptoError) -> Void
        ) throws {
            let srp = try PasswordFallback.srp()
            guard bytes.count <= srp.width else {
                throw OAuthError(
                    .invalidRequest, "Invalid \(name): longer than the 3072-bit modulus.",
                    logCode: "srp_value_too_long", reason: "\(name) of \(bytes.count) bytes")
            }
            do {
                try check(srp, bytes)
            } catch {
                // RFC 5054 §2.5.4: A % N == 0 is refused; so is anything outside 1..<N.
                throw OAuthError(
                    .invalidRequest, "Invalid \(name): must be between 1 and N − 1.",
                    logCode: "srp_value_out_of_range", reason: error.reason)
            }
            self.bytes = bytes
        }
    }

    /// The client's proof M1 (RFC 2945 §3): one digest of the group's hash.
    package struct ClientProof: Sendable, Equatable {
        package let bytes: [UInt8]

        /// - Throws: 400 `invalid_request` (`m1_length`) for another length than SHA-256's.
        package init(_ bytes: [UInt8]) throws {
            let length = try PasswordFallback.srp().hash.digestByteCount
            guard bytes.count == length else {
                throw OAuthError(
                    .invalidRequest, "Invalid M1: must be \(length) bytes (SHA-256).", logCode: "m1_length",
                    reason: "\(bytes.count) bytes")
            }
            self.bytes = bytes
        }
    }
}
