import Testing

@testable import WebAuthn

@Suite("AttestationFormatRegistry")
struct AttestationFormatRegistryTests {
    @Test("the standard registry holds this branch's formats and matches fmt case-sensitively")
    func standard() {
        let registry = AttestationFormatRegistry.standard
        #expect(registry.format(for: "none") is NoneAttestation)
        #expect(registry.format(for: "packed") is PackedAttestation)
        #expect(registry.format(for: "fido-u2f") is FIDOU2FAttestation)
        #expect(registry.format(for: "PACKED") == nil)
        #expect(registry.format(for: "not_real_fmt") == nil)
    }

    @Test("a registry can be narrowed to chosen formats")
    func custom() {
        let registry = AttestationFormatRegistry([NoneAttestation.self])
        #expect(registry.identifiers == ["none"])
    }
}
