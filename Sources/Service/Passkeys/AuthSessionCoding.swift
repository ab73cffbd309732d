import Crypto
import Foundation
import Storage

/// The plaintext of a sealed `auth_session` (`AuthSessionSealer`): an `AuthSession` in a compact binary form, read
/// back field for field. Lengths are big-endian; instants are the bit patterns of their `timeIntervalSince1970`, so
/// they come back exactly.
///
/// `id` (16 bytes, the session id's base64url decoded) ‖ kind (0 login, 1 sign-up) ‖ created ‖ expires (8 bytes
/// each) ‖ challenge (1-byte length) ‖ client id ‖ realm (2-byte length, UTF-8), then for a sign-up only: the user
/// handle (1-byte length), a 2-byte mask of the optional profile strings present, and each present one (2-byte
/// length, UTF-8) in the order of `profileFields`; last, for every session (format version 2, `AuthSessionSealer`),
/// the organization: a byte 0 for none, or 1 and its id and its name (2-byte length, UTF-8 each).
package enum AuthSessionCoding {
    /// The length of a session id's bytes.
    package static let idByteCount = 16

    /// The optional strings of a sign-up, in their order in the plaintext and in the presence mask.
    private static let profileFields: [any WritableKeyPath<AuthSession, String?> & Sendable] = [
        \.email, \.phoneNumber, \.username, \.name, \.profile.givenName, \.profile.familyName, \.profile.nickname,
        \.profile.picture, \.profile.userMetadata,
    ]

    /// `session` as plaintext. - Throws: `OAuthError.bug` for an id that is not 16 bytes in base64url, a challenge
    /// or user handle over 255 bytes or a string over 65,535 (none the server makes).
    package static func encode(_ session: AuthSession) throws -> [UInt8] {
        guard let id = Base64URL.decode(session.id), id.count == idByteCount else {
            throw OAuthError.bug("auth session id \(session.id) is not \(idByteCount) bytes")
        }
        var bytes = id
        bytes.append(session.kind == .signup ? 1 : 0)
        append(session.createdAt, to: &bytes)
        append(session.expiresAt, to: &bytes)
        try appendShort(session.challenge, to: &bytes)
        try append(session.clientID, to: &bytes)
        try append(session.realm, to: &bytes)
        if session.kind == .signup {
            try appendShort(session.userHandle ?? [], to: &bytes)
            var mask: UInt16 = 0
            for (index, field) in profileFields.enumerated() where session[keyPath: field] != nil {
                mask |= 1 << UInt16(index)
            }
            bytes += [UInt8(mask >> 8), UInt8(mask & 0xFF)]
            for field in profileFields { if let text = session[keyPath: field] { try append(text, to: &bytes) } }
        }
        if let organizationID = session.organizationID {
            bytes.append(1)
            try append(organizationID, to: &bytes)
            try append(session.organizationName ?? "", to: &bytes)
        } else {
            bytes.append(0)
        }
        return bytes
    }

    /// The session `bytes` encode, or `nil` when they are not exactly one encoding.
    package static func decode(_ bytes: [UInt8]) -> AuthSession? {
        var reader = Reader(bytes: bytes)
        guard let id = reader.take(idByteCount), let kindByte = reader.take(1)?.first, kindByte <= 1,
            let createdAt = reader.date(), let expiresAt = reader.date(), let challenge = reader.short(),
            let clientID = reader.string(), let realm = reader.string()
        else { return nil }
        var session = AuthSession(
            id: Base64URL.encode(id), clientID: clientID, realm: realm, kind: kindByte == 1 ? .signup : .login,
            challenge: challenge, createdAt: createdAt, expiresAt: expiresAt)
        if session.kind == .signup {
            guard let userHandle = reader.short(), let maskBytes = reader.take(2) else { return nil }
            session.userHandle = userHandle
            let mask = UInt16(maskBytes[0]) << 8 | UInt16(maskBytes[1])
            guard mask >> UInt16(profileFields.count) == 0 else { return nil }
            for (index, field) in profileFields.enumerated() where mask & (1 << UInt16(index)) != 0 {
                guard let text = reader.string() else { return nil }
                session[keyPath: field] = text
            }
        }
        guard let organization = reader.take(1)?.first, organization <= 1 else { return nil }
        if organization == 1 {
            guard let id = reader.string(), let name = reader.string() else { return nil }
            session.organizationID = id
            session.organizationName = name.isEmpty ? nil : name
        }
        return reader.isAtEnd ? session : nil
    }

    private static func append(_ date: Date, to bytes: inout [UInt8]) {
        let bits = date.timeIntervalSince1970.bitPattern
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
    }

    private static func appendShort(_ value: [UInt8], to bytes: inout [UInt8]) throws {
        guard value.count <= Int(UInt8.max) else { throw OAuthError.bug("\(value.count) bytes for a 1-byte length") }
        bytes.append(UInt8(value.count))
        bytes += value
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) throws {
        let utf8 = Array(text.utf8)
        guard utf8.count <= Int(UInt16.max) else { throw OAuthError.bug("\(utf8.count) bytes for a 2-byte length") }
        bytes += [UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)]
        bytes += utf8
    }

    /// Reads the plaintext front to back; every read is `nil` past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func date() -> Date? {
            guard let raw = take(8) else { return nil }
            let bits = raw.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let seconds = Double(bitPattern: bits)
            return seconds.isFinite ? Date(timeIntervalSince1970: seconds) : nil
        }

        mutating func short() -> [UInt8]? {
            guard let count = take(1)?.first else { return nil }
            return take(Int(count))
        }

        mutating func string() -> String? {
            guard let length = take(2), let utf8 = take(Int(length[0]) << 8 | Int(length[1])) else { return nil }
            return String(validating: utf8, as: UTF8.self)
        }
    }
}
