import Crypto
import Foundation
import JSON

/// The exact bytes a device signs to approve one action: the RFC 8785 canonical form of
///
///     {"action_sha256":…,"challenge_id":…,"exp":…,"iat":…,"iss":…,"key_id":…,"nonce":…,"sub":…,"v":1}
///
/// binding the subject, the device key, the challenge, a fresh nonce, the validity window and the
/// SHA-256 of the action's canonical bytes. Changing any field changes the bytes, so a signature for one
/// action can never approve another. The server stores `bytes` with the challenge and sends them to the
/// app base64url-encoded; the app may parse them to show the user what is being signed.
public struct ChallengeDocument: Sendable, Hashable {
    /// The document format version (`v`), 1.
    public static let version = 1
    /// Length of the random nonce in bytes.
    public static let nonceByteCount = 32

    /// `iss`: the server's issuer identifier.
    public let issuer: String
    /// `sub`: the account the key belongs to.
    public let subject: String
    /// `key_id`: the server-assigned device key id.
    public let keyID: String
    /// `challenge_id`: the server-assigned challenge id.
    public let challengeID: String
    /// `nonce`: the 32 random bytes.
    public let nonce: [UInt8]
    /// `iat`, whole seconds since the epoch.
    public let issuedAt: Int64
    /// `exp`, whole seconds since the epoch.
    public let expiresAt: Int64
    /// `action_sha256`: SHA-256 of the action's canonical bytes.
    public let actionSHA256: [UInt8]
    /// The canonical document bytes: what the device signs.
    public let bytes: [UInt8]

    /// The `challenge` value for the wire: base64url of `bytes`.
    public var base64URLEncoded: String { Base64URL.encode(bytes) }

    /// Builds a new document. Times are truncated to whole seconds.
    /// - Parameter nonce: exactly 32 bytes from `SecureRandom` (drawn by the caller: this module draws no randomness).
    /// - Throws: `.invalidChallengeDocument` for a wrong nonce length, empty identifiers or `expiresAt <= issuedAt`.
    public init(
        issuer: String, subject: String, keyID: String, challengeID: String, nonce: [UInt8],
        issuedAt: Date, expiresAt: Date, action: DeviceAction
    ) throws(DeviceKeyError) {
        try self.init(
            issuer: issuer, subject: subject, keyID: keyID, challengeID: challengeID, nonce: nonce,
            issuedAt: try Self.seconds(issuedAt), expiresAt: try Self.seconds(expiresAt),
            actionSHA256: Digest.sha256(action.canonicalBytes)
        )
    }

    private init(
        issuer: String, subject: String, keyID: String, challengeID: String, nonce: [UInt8],
        issuedAt: Int64, expiresAt: Int64, actionSHA256: [UInt8]
    ) throws(DeviceKeyError) {
        guard nonce.count == Self.nonceByteCount else {
            throw DeviceKeyError(
                .invalidChallengeDocument, "nonce must be \(Self.nonceByteCount) bytes, not \(nonce.count)")
        }
        guard !issuer.isEmpty, !subject.isEmpty, !keyID.isEmpty, !challengeID.isEmpty else {
            throw DeviceKeyError(.invalidChallengeDocument, "iss, sub, key_id and challenge_id must be non-empty")
        }
        guard expiresAt > issuedAt else {
            throw DeviceKeyError(.invalidChallengeDocument, "exp \(expiresAt) is not after iat \(issuedAt)")
        }
        guard actionSHA256.count == 32 else {
            throw DeviceKeyError(.invalidChallengeDocument, "action_sha256 must be 32 bytes")
        }
        self.issuer = issuer
        self.subject = subject
        self.keyID = keyID
        self.challengeID = challengeID
        self.nonce = nonce
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.actionSHA256 = actionSHA256
        let document: JSONValue = [
            "v": .number(String(Self.version)),
            "iss": .string(issuer),
            "sub": .string(subject),
            "key_id": .string(keyID),
            "challenge_id": .string(challengeID),
            "nonce": .string(Base64URL.encode(nonce)),
            "iat": .number(String(issuedAt)),
            "exp": .number(String(expiresAt)),
            "action_sha256": .string(Base64URL.encode(actionSHA256)),
        ]
        // RFC 8785: the signed bytes are the canonical form, so client and server agree on them.
        do {
            self.bytes = try JCS.canonicalBytes(document)
        } catch {
            throw DeviceKeyError(.invalidChallengeDocument, "not canonicalisable: \(error.reason)")
        }
    }

    /// Parses document bytes back (as stored with the challenge, or as an app received them).
    /// - Throws: `.invalidChallengeDocument` unless `bytes` is exactly the canonical form of a version-1
    ///   document with all nine members and nothing else.
    public init(bytes: [UInt8]) throws(DeviceKeyError) {
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: bytes, maximumDepth: 1)
        } catch {
            throw DeviceKeyError(.invalidChallengeDocument, "not JSON: \(error.reason)")
        }
        guard let members = parsed.objectValue, parsed.objectMembers?.count == 9 else {
            throw DeviceKeyError(.invalidChallengeDocument, "expected an object with exactly 9 members")
        }
        guard members["v"]?.doubleValue == Double(Self.version) else {
            throw DeviceKeyError(.invalidChallengeDocument, "unsupported version")
        }
        guard let issuer = members["iss"]?.stringValue, let subject = members["sub"]?.stringValue,
            let keyID = members["key_id"]?.stringValue, let challengeID = members["challenge_id"]?.stringValue,
            let nonceText = members["nonce"]?.stringValue, let nonce = Base64URL.decode(nonceText),
            let hashText = members["action_sha256"]?.stringValue, let actionSHA256 = Base64URL.decode(hashText),
            let issuedAt = members["iat"]?.doubleValue.flatMap(Self.wholeSeconds),
            let expiresAt = members["exp"]?.doubleValue.flatMap(Self.wholeSeconds)
        else {
            throw DeviceKeyError(.invalidChallengeDocument, "a member is missing or has the wrong type")
        }
        try self.init(
            issuer: issuer, subject: subject, keyID: keyID, challengeID: challengeID, nonce: nonce,
            issuedAt: issuedAt, expiresAt: expiresAt, actionSHA256: actionSHA256
        )
        // Only the canonical form is accepted: the bytes must be what we would have produced.
        guard self.bytes == bytes else {
            throw DeviceKeyError(.invalidChallengeDocument, "document bytes are not in canonical form")
        }
    }

    /// JSON numbers survive as doubles only up to 2^53 (RFC 7493 §2.2), so times must stay below that.
    private static let maxExactInteger: Double = 9_007_199_254_740_992

    private static func seconds(_ date: Date) throws(DeviceKeyError) -> Int64 {
        guard let seconds = wholeSeconds(date.timeIntervalSince1970.rounded(.down)) else {
            throw DeviceKeyError(.invalidChallengeDocument, "time \(date) out of range")
        }
        return seconds
    }

    private static func wholeSeconds(_ value: Double) -> Int64? {
        guard value.isFinite, value.magnitude < maxExactInteger else { return nil }
        return Int64(exactly: value)
    }
}
