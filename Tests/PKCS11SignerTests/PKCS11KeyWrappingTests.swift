import Crypto
import TestSupport
import Testing

@testable import PKCS11Signer

/// Wrapping a key under an AES-256 key that stays in the HSM (SoftHSM2, keys made by pkcs11-tool).
@Suite(
    "A key wrapped by an HSM's AES key (CKM_AES_GCM)",
    .enabled(if: SoftHSM.isInstalled, "SoftHSM2 or pkcs11-tool is not installed"))
struct PKCS11KeyWrappingTests {
    static func location(key: String = SoftHSM.aesLabel, token: String = SoftHSM.tokenLabel) throws -> PKCS11Location {
        _ = try SoftHSM.directory.get()
        return PKCS11Location(module: SoftHSM.module, tokenLabel: token, keyLabel: key)
    }

    @Test("wrapped and unwrapped again, the key is the same; each wrapping has its own IV")
    func roundTrip() async throws {
        try await SoftHSM.exclusively {
            let location = try Self.location()
            let key = try SecureRandom.bytes(count: 32)
            let first = try PKCS11KeyWrapping.wrap(key, at: location, pin: SoftHSM.pin)
            let second = try PKCS11KeyWrapping.wrap(key, at: location, pin: SoftHSM.pin)
            #expect(first.count == PKCS11KeyWrapping.wrappedByteCount(keyByteCount: 32))
            #expect(first != second)
            #expect(!first.contains(subsequence: key))
            #expect(try PKCS11KeyWrapping.unwrap([first, second], at: location, pin: SoftHSM.pin) == [key, key])
        }
    }

    @Test(
        "a wrapped key altered, cut short, or under another AES key does not unwrap; a wrong PIN, an unknown key or a key that is not secret are named",
        arguments: ["altered", "truncated", "other key", "wrong PIN", "unknown key", "key pair"])
    func refusals(_ case: String) async throws {
        try await SoftHSM.exclusively {
            let location = try Self.location()
            var wrapped = try PKCS11KeyWrapping.wrap(try SecureRandom.bytes(count: 32), at: location, pin: SoftHSM.pin)
            var at = location
            var pin = SoftHSM.pin
            let named: String
            switch `case` {
            case "altered":
                wrapped[20] ^= 0x01
                named = "does not authenticate under secret key"
            case "truncated":
                wrapped = Array(wrapped.prefix(20))
                named = "unwrapping a key of 20 bytes"
            case "other key":
                at = try Self.location(key: SoftHSM.otherAESLabel)
                named = "does not authenticate under secret key"
            case "wrong PIN":
                pin = "9999"
                named = "CKR_PIN_INCORRECT"
            case "unknown key":
                at = try Self.location(key: "no-such-key")
                named = "secret key \"no-such-key\""
            default:
                at = try Self.location(key: SoftHSM.ed25519Label)
                named = "secret key \"\(SoftHSM.ed25519Label)\""
            }
            #expect {
                _ = try PKCS11KeyWrapping.unwrap([wrapped], at: at, pin: pin)
            } throws: { error in
                "\(error)".contains(named)
            }
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
