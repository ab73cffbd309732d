import Foundation
import Testing

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Recovery codes and AAGUID names")
struct RecoveryCodesTests {
    @Test("a set is ten distinct codes shown as XXXX-XXXX-XXXX, stored as PBKDF2 hashes under one salt")
    func generation() throws {
        let set = try RecoveryCodes.generate(userID: "u1", now: Date(timeIntervalSince1970: 0))
        #expect(set.codes.count == 10)
        #expect(Set(set.codes).count == 10)
        #expect(Set(set.records.map(\.salt)).count == 1)
        for (code, record) in zip(set.codes, set.records) {
            #expect(code.count == 14)
            let canonical = try #require(RecoveryCodes.normalized(code))
            #expect(try RecoveryCodes.hash(canonical, salt: record.salt) == record.codeHash)
            #expect(!record.codeHash.isEmpty && record.codeHash != Array(canonical.utf8))
        }
    }

    @Test("typing: case, dashes and spaces do not matter; O, I, L read as 0, 1; anything else is refused")
    func normalization() {
        #expect(RecoveryCodes.normalized("7k3m-q9zd-1xaf") == "7K3MQ9ZD1XAF")
        #expect(RecoveryCodes.normalized("7K3M Q9ZD IXAF") == "7K3MQ9ZD1XAF")
        #expect(RecoveryCodes.normalized("OOOO-LLLL-IIII") == "000011111111")
        #expect(RecoveryCodes.normalized("7K3M-Q9ZD-1XA") == nil)
        #expect(RecoveryCodes.normalized("7K3M-Q9ZD-1XAU") == nil)
        #expect(RecoveryCodes.normalized(String(repeating: "A", count: 100)) == nil)
    }

    @Test("a passkey is named by its provider's AAGUID, else \"Passkey\"")
    func aaguidNames() {
        let windowsHello: [UInt8] = [
            0x08, 0x98, 0x70, 0x58, 0xca, 0xdc, 0x4b, 0x81, 0xb6, 0xe1, 0x30, 0xde, 0x50, 0xdc, 0xbe, 0x96,
        ]
        #expect(AAGUIDNames.name(for: windowsHello) == "Windows Hello")
        #expect(AAGUIDNames.name(for: [UInt8](repeating: 0, count: 16)) == "Passkey")
        #expect(AAGUIDNames.name(for: [1, 2, 3]) == "Passkey")
        #expect(AAGUIDNames.names.count == 52)
    }
}
