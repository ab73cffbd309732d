import Foundation
import Storage

/// Sample records for the conformance suite: fixed values, times on whole seconds (every driver stores them
/// exactly).
enum StoreSamples {
    /// A fixed instant all samples are relative to.
    static let epoch = Date(timeIntervalSince1970: 1_750_000_000)

    /// `epoch` plus `seconds`.
    static func at(_ seconds: TimeInterval) -> Date { epoch.addingTimeInterval(seconds) }

    /// `count` bytes all equal to `fill`.
    static func bytes(_ fill: UInt8, count: Int = 32) -> [UInt8] { [UInt8](repeating: fill, count: count) }

    static func user(_ n: Int, realm: String = "main", email: String? = nil, username: String? = nil) -> User {
        User(
            id: "user-\(n)", userHandle: bytes(UInt8(n % 256)), realm: realm, email: email ?? "u\(n)@example.com",
            phoneNumber: nil, username: username, name: "User \(n)", createdAt: at(Double(n)))
    }

    static func credential(_ n: Int, userID: String, signCount: UInt32 = 0) -> Credential {
        Credential(
            credentialID: [0xC0, UInt8(n % 256), UInt8(n / 256 % 256)], userID: userID,
            publicKey: [0xA5, 0x01, 0x02, 0x03, 0x26], algorithm: -7, signCount: signCount, uvInitialized: true,
            backupEligible: true, backedUp: false, transports: ["internal", "hybrid"], aaguid: bytes(0xAA, count: 16),
            attestationFormat: "none", createdAt: at(Double(n)))
    }

    static func session(_ id: String, kind: AuthSession.Kind = .login, expiresAt: Date = at(300)) -> AuthSession {
        AuthSession(
            id: id, clientID: "client-1", realm: "main", kind: kind, challenge: bytes(0x11),
            email: kind == .signup ? "new@example.com" : nil, name: kind == .signup ? "New" : nil,
            userHandle: kind == .signup ? bytes(0x22) : nil, createdAt: epoch, expiresAt: expiresAt)
    }

    static func refreshToken(_ n: UInt8, family: String = "family-1", createdAt: Date = epoch) -> RefreshToken {
        RefreshToken(
            tokenHash: bytes(n), familyID: family, clientID: "client-1", userID: "user-1",
            scope: "openid offline_access",
            authTime: epoch, createdAt: createdAt, absoluteExpiresAt: at(86_400),
            idleExpiresAt: createdAt.addingTimeInterval(3_600))
    }

    static func deviceKey(
        _ id: String, userID: String = "user-1", deviceID: String = "device-1", createdAt: Date = epoch
    )
        -> DeviceKey
    {
        DeviceKey(
            keyID: id, userID: userID, deviceID: deviceID, platform: "ios", publicKey: bytes(0x30, count: 91),
            createdAt: createdAt)
    }

    static func deviceChallenge(_ id: String, keyID: String = "key-1", userID: String = "user-1") -> DeviceChallenge {
        DeviceChallenge(
            challengeID: id, keyID: keyID, userID: userID, document: Array("{\"doc\":1}".utf8),
            actionHash: bytes(0x44), action: Array("{\"type\":\"transfer\"}".utf8), createdAt: epoch,
            expiresAt: at(120))
    }
}
