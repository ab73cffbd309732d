import CBOR
import Crypto
import Testing

@testable import WebAuthn

/// WebAuthn L3 §8.9: the compound format's syntax and verification procedure, through the registry that runs it.
@Suite("CompoundAttestation")
struct CompoundAttestationTests {
    typealias SA = SoftwareAuthenticator
    let fixture: AttestationFixture
    let authData: [UInt8]

    init() throws {
        fixture = try AttestationFixture()
        authData = fixture.authenticator.registrationData(aaguid: TestCertificates.aaguid)
    }

    /// A `packed` self-attestation statement over `authData` (a wrong signature when `corrupt`).
    func packedSelf(corrupt: Bool = false) throws -> CBORValue {
        let signed = corrupt ? [1, 2, 3] : authData + fixture.clientDataHash
        return AttestationFixture.statement([
            ("alg", CBORValue(-7)), ("sig", .bytes(try fixture.authenticator.key.signature(for: signed))),
        ])
    }

    /// A `packed` full-attestation statement by the test CA's leaf.
    func packedFull() throws -> CBORValue {
        AttestationFixture.statement([
            ("alg", CBORValue(-7)),
            ("sig", .bytes(try fixture.leafKey.signature(for: authData + fixture.clientDataHash))),
            ("x5c", .array([.bytes(AttestationFixture.der(TestCertificates.good))])),
        ])
    }

    static func entry(_ fmt: CBORValue?, _ attStmt: CBORValue?) -> CBORValue {
        .map(
            [("fmt", fmt), ("attStmt", attStmt)].compactMap { key, value in
                value.map { CBORMapEntry(key: .text(key), value: $0) }
            })
    }

    func verify(_ statement: CBORValue, registry: AttestationFormatRegistry = .standard) throws
        -> [VerifiedAttestationStatement]
    {
        try registry.verify(format: "compound", try fixture.input(statement, authData: authData))
    }

    @Test("§8.9: every entry is verified by its own format; one result per entry, in order")
    func verifiesEachEntry() throws {
        let verified = try verify(
            .array([
                Self.entry(.text("packed"), try packedFull()), Self.entry(.text("none"), .map([])),
                Self.entry(.text("packed"), try packedSelf()),
            ]))
        #expect(verified.map(\.format) == ["packed", "none", "packed"])
        #expect(verified.map(\.result.type) == [.basic, .none, .self])
        #expect(verified[0].result.trustPath.map(\.derEncoded) == [AttestationFixture.der(TestCertificates.good)])
    }

    @Test(
        "§8.9 syntax: attStmt must be an array of at least two {fmt, attStmt} maps, none of them compound",
        arguments: [
            ("a map", CBORValue.map([])),
            ("no entries", .array([])),
            ("one entry", .array([entry(.text("none"), .map([]))])),
            ("an entry that is not a map", .array([entry(.text("none"), .map([])), .text("none")])),
            ("an entry without fmt", .array([entry(.text("none"), .map([])), entry(nil, .map([]))])),
            ("an fmt that is not text", .array([entry(.text("none"), .map([])), entry(.bytes([1]), .map([]))])),
            ("an entry without attStmt", .array([entry(.text("none"), .map([])), entry(.text("none"), nil)])),
            (
                "a nested compound",
                .array([
                    entry(.text("none"), .map([])),
                    entry(.text("compound"), .array([entry(.text("none"), .map([])), entry(.text("none"), .map([]))])),
                ])
            ),
        ])
    func malformed(_ name: String, _ statement: CBORValue) {
        #expect(throws: code(.compoundMalformedStatement), "\(name)") { try verify(statement) }
    }

    @Test("an entry of a format this server does not implement is unsupportedAttestationFormat, naming the entry")
    func unsupportedEntry() throws {
        let error = try #require(
            throws: WebAuthnError.self,
            performing: {
                try verify(.array([Self.entry(.text("none"), .map([])), Self.entry(.text("x-unknown"), .map([]))]))
            })
        #expect(error.code == .unsupportedAttestationFormat)
        #expect(error.reason.hasPrefix("compound attStmt[1] (x-unknown)"))
    }

    @Test("an entry that fails its format's procedure fails the statement with that format's code, however many pass")
    func failingEntry() throws {
        let badSignature = try #require(
            throws: WebAuthnError.self,
            performing: {
                try verify(
                    .array([
                        Self.entry(.text("packed"), try packedFull()), Self.entry(.text("packed"), try packedSelf()),
                        Self.entry(.text("packed"), try packedSelf(corrupt: true)),
                    ]))
            })
        #expect(badSignature.code == .badSignature)
        #expect(badSignature.reason.hasPrefix("compound attStmt[2] (packed): "))
        // A `none` entry must be an empty map, as the format says on its own.
        #expect(throws: code(.invalidAttestationStatement)) {
            try verify(.array([Self.entry(.text("packed"), try packedSelf()), Self.entry(.text("none"), .array([]))]))
        }
    }

    @Test("a registry without compound support refuses it as any unknown format; the standard one lists it")
    func registrySupport() throws {
        let plain = AttestationFormatRegistry([NoneAttestation.self, PackedAttestation.self])
        #expect(!plain.supports("compound") && plain.identifiers == ["none", "packed"])
        #expect(throws: code(.unsupportedAttestationFormat)) {
            try verify(
                .array([Self.entry(.text("none"), .map([])), Self.entry(.text("none"), .map([]))]), registry: plain)
        }
        let withCompound = AttestationFormatRegistry([NoneAttestation.self], compound: true)
        #expect(withCompound.identifiers == ["compound", "none"])
        // Entries are verified only by the formats of the same registry.
        #expect(throws: code(.unsupportedAttestationFormat)) {
            try verify(
                .array([Self.entry(.text("none"), .map([])), Self.entry(.text("packed"), try packedSelf())]),
                registry: withCompound)
        }
        #expect(AttestationFormatRegistry.standard.supports("compound"))
        #expect(AttestationFormatRegistry.standard.identifiers.contains("compound"))
        #expect(!AttestationFormatRegistry.standard.supports("Compound"))
    }

    @Test("a plain format still gives one result, under its own identifier")
    func plainFormat() throws {
        let verified = try AttestationFormatRegistry.standard.verify(
            format: "packed", try fixture.input(try packedSelf(), authData: authData))
        #expect(verified.map(\.format) == ["packed"] && verified.map(\.result.type) == [.self])
    }
}
