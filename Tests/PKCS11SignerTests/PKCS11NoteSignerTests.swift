import Audit
import Crypto
import TestSupport
import Testing

@testable import PKCS11Signer

/// The checkpoint signer on a real PKCS#11 module: SoftHSM2, with keys made by OpenSC's pkcs11-tool. Serialized:
/// the tests share one token, and the wrong-PIN test must run while no other session of this process is logged in
/// (the login state is the application's, PKCS #11 3.0 §5.6).
@Suite(
    "PKCS#11 checkpoint signer on SoftHSM2", .serialized,
    .enabled(if: SoftHSM.isInstalled, "SoftHSM2 or pkcs11-tool is not installed"))
struct PKCS11NoteSignerTests {
    static let origin = "example.org/passkeyd-audit"

    static func location(
        module: String = SoftHSM.module, token: String = SoftHSM.tokenLabel, key: String = SoftHSM.ed25519Label
    ) throws -> PKCS11NoteSigner.Location {
        _ = try SoftHSM.directory.get()
        return PKCS11NoteSigner.Location(module: module, tokenLabel: token, keyLabel: key)
    }

    static func open(_ location: PKCS11NoteSigner.Location, pin: String = SoftHSM.pin) throws(AuditError)
        -> PKCS11NoteSigner
    {
        try PKCS11NoteSigner(name: origin, location: location, pin: pin)
    }

    @Test("the token's Ed25519 key signs checkpoints that verify with the public key pkcs11-tool exports")
    func signsCheckpoints() async throws {
        try await SoftHSM.exclusively {
            let signer = try Self.open(try Self.location())
            defer { signer.close() }
            // The public key the signer read (CKA_EC_POINT) is the one an independent tool reads from the token.
            #expect(signer.verifierKey.publicKey.derRepresentation == (try SoftHSM.exportedEd25519PublicKey()))
            let checkpoint = Checkpoint(origin: Self.origin, size: 42, rootHash: MerkleHash.emptyRoot)
            let note = try SignedNote(parsing: try checkpoint.signed(by: signer).serialized)
            try note.verify(with: signer.verifierKey)
            #expect(try Checkpoint(text: note.text) == checkpoint)
            let other = try SoftwareNoteSigner(name: Self.origin, key: Ed25519SigningKey())
            #expect(throws: AuditError.self) { try note.verify(with: other.verifierKey) }
            // Ed25519 is deterministic (RFC 8032 §5.1.6): the HSM gives the same signature for the same message.
            let message = Array("passkeyd".utf8)
            let signature = try signer.sign(message)
            #expect(try signer.sign(message) == signature)
            #expect(signer.verifierKey.publicKey.isValidSignature(signature, for: message))
        }
    }

    @Test(
        "a wrong PIN, an unknown token or key, a key that is not Ed25519 and a missing module are refused, each named",
        arguments: [
            ("wrong PIN", "CKR_PIN_INCORRECT"), ("unknown token", "CKR_TOKEN_NOT_PRESENT"),
            ("unknown key", "CKR_KEY_HANDLE_INVALID"), ("P-256 key", "is not an Ed25519 key"),
            ("missing module", "loading /nonexistent/libpkcs11.so"),
        ])
    func refusals(_ case: String, _ named: String) async throws {
        try await SoftHSM.exclusively {
            let location: PKCS11NoteSigner.Location
            var pin = SoftHSM.pin
            switch `case` {
            case "wrong PIN":
                location = try Self.location()
                pin = "9999"
            case "unknown token": location = try Self.location(token: "no-such-token")
            case "unknown key": location = try Self.location(key: "no-such-key")
            case "P-256 key": location = try Self.location(key: SoftHSM.p256Label)
            default: location = try Self.location(module: "/nonexistent/libpkcs11.so")
            }
            do throws(AuditError) {
                let signer = try Self.open(location, pin: pin)
                signer.close()
                Issue.record("\(`case`): opened")
            } catch {
                #expect(error.code == .signerFailure)
                #expect(error.reason.contains(named), "\(`case`): \(error.reason)")
            }
        }
    }

    @Test("two signers on one module: closing one leaves the other logged in and signing")
    func twoSigners() async throws {
        try await SoftHSM.exclusively {
            let location = try Self.location()
            let first = try Self.open(location)
            let second = try Self.open(location)
            defer { second.close() }
            first.close()
            // Before: closing the first logged the application out (C_Logout) and finalized the module (C_Finalize),
            // which ended the second's session too.
            let message = Array("still here".utf8)
            #expect(second.verifierKey.publicKey.isValidSignature(try second.sign(message), for: message))
        }
    }

    @Test("after close, signing is refused")
    func closed() async throws {
        try await SoftHSM.exclusively {
            let signer = try Self.open(try Self.location())
            signer.close()
            signer.close()  // idempotent
            #expect(throws: AuditError(.signerFailure, "the PKCS#11 session is closed")) { try signer.sign([1]) }
        }
    }
}

@Suite("PKCS#11 checkpoint signer without a token")
struct PKCS11NoteSignerOfflineTests {
    @Test("SoftHSM2 is installed where the test command requires these tests (they are never skipped there)")
    func installedWhereRequired() {
        #expect(SoftHSM.isInstalled || !SoftHSM.isRequired)
    }

    @Test("CKA_EC_POINT of an Edwards key is read bare or DER-wrapped in an OCTET STRING (PKCS #11 3.0 §2.3.5)")
    func edwardsPoint() {
        let point = [UInt8](repeating: 7, count: 32)
        #expect(PKCS11NoteSigner.rawPublicKey(point) == point)
        #expect(PKCS11NoteSigner.rawPublicKey([0x04, 0x20] + point) == point)
    }
}
