import Crypto
import Foundation
import JSON
import TestSupport
import Testing

@testable import Metadata

@Suite("MetadataBLOBVerifier: the x5c chain at the time of use, and CRLs (FIDO MDS3 §3.2, RFC 5280 §6.3)")
struct MetadataChainTests {
    typealias Support = MetadataTestSupport

    func code(
        _ jws: String, roots: [Certificate], crls: [CertificateRevocationList] = [], at time: Date = Support.now
    ) -> MetadataError.Code? {
        do {
            _ = try MetadataBLOBVerifier(roots: roots, crls: crls).verify(jws, at: time)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("a chain to another root, to no root, or with the root left out of the roots is untrusted_chain")
    func wrongRoot() throws {
        let authority = try #require(Support.authority)
        let other = try #require(Support.otherAuthority)
        let jws = try authority.blob(serial: 1, nextUpdate: Support.day(30), entries: [])
        #expect(code(jws, roots: [other.root]) == .untrustedChain)
        #expect(code(jws, roots: []) == .untrustedChain)
        #expect(code(jws, roots: BuiltinMetadataRoot.certificates) == .untrustedChain)
        // The intermediate in x5c cannot anchor the path by itself, nor can the signer.
        #expect(code(jws, roots: [authority.root]) == nil)
    }

    @Test("a signer that is expired or not yet valid at the time of use is untrusted_chain, naming OpenSSL's reason")
    func validity() throws {
        let authority = try #require(Support.authority)
        let jws = try authority.blob(serial: 1, nextUpdate: "2099-12-31", entries: [])
        let verifier = MetadataBLOBVerifier(roots: [authority.root])
        let expired = authority.ecSigner.notValidAfter.addingTimeInterval(86_400)
        let early = authority.ecSigner.notValidBefore.addingTimeInterval(-86_400)
        for time in [expired, early] {
            #expect(throws: MetadataError(.untrustedChain, "")) { try verifier.verify(jws, at: time) }
            do {
                _ = try verifier.verify(jws, at: time)
            } catch {
                #expect(error.reason.contains("certificate has expired") || error.reason.contains("not yet valid"))
            }
        }
    }

    @Test("with CRLs of both CAs that list nothing, the BLOB verifies")
    func cleanCRLs() throws {
        let authority = try #require(Support.authority)
        let jws = try authority.blob(serial: 1, nextUpdate: Support.day(30), entries: [], alg: .rs256)
        let crls = [try authority.crl(issuer: .root), try authority.crl(issuer: .intermediate)]
        #expect(code(jws, roots: [authority.root], crls: crls) == nil)
    }

    @Test("a CRL listing the signer or the intermediate is revoked")
    func revoked() throws {
        let authority = try #require(Support.authority)
        let jws = try authority.blob(serial: 1, nextUpdate: Support.day(30), entries: [])
        let signerRevoked = [
            try authority.crl(issuer: .root), try authority.crl(issuer: .intermediate, revoking: [authority.ecSigner]),
        ]
        #expect(code(jws, roots: [authority.root], crls: signerRevoked) == .revoked)
        let intermediateRevoked = [
            try authority.crl(issuer: .root, revoking: [authority.intermediate]),
            try authority.crl(issuer: .intermediate),
        ]
        #expect(code(jws, roots: [authority.root], crls: intermediateRevoked) == .revoked)
        // The other signer is not on the intermediate's CRL: its BLOB still verifies.
        let rsa = try authority.blob(serial: 1, nextUpdate: Support.day(30), entries: [], alg: .rs256)
        #expect(code(rsa, roots: [authority.root], crls: signerRevoked) == nil)
    }

    @Test("CRLs given, but none for a CA of the chain: untrusted_chain saying which CRL is missing")
    func missingCRL() throws {
        let authority = try #require(Support.authority)
        let jws = try authority.blob(serial: 1, nextUpdate: Support.day(30), entries: [])
        let verifier = MetadataBLOBVerifier(roots: [authority.root], crls: [try authority.crl(issuer: .root)])
        do {
            _ = try verifier.verify(jws, at: Support.now)
            Issue.record("verified without the intermediate's CRL")
        } catch {
            #expect(error.code == .untrustedChain)
            #expect(error.reason.contains("no CRL among the given CRL files"))
        }
        let onlyIntermediate = [try authority.crl(issuer: .intermediate)]
        #expect(code(jws, roots: [authority.root], crls: onlyIntermediate) == .untrustedChain)
        // Another authority's CRLs do not cover this chain.
        let other = try #require(Support.otherAuthority)
        let foreign = [try other.crl(issuer: .root), try other.crl(issuer: .intermediate)]
        #expect(code(jws, roots: [authority.root], crls: foreign) == .untrustedChain)
    }

    @Test("a CRL past its nextUpdate at the time of use does not vouch for the chain")
    func expiredCRL() throws {
        let authority = try #require(Support.authority)
        let jws = try authority.blob(serial: 1, nextUpdate: "2099-12-31", entries: [])
        let crls = [try authority.crl(issuer: .root, days: 1), try authority.crl(issuer: .intermediate, days: 1)]
        #expect(code(jws, roots: [authority.root], crls: crls) == nil)
        #expect(
            code(jws, roots: [authority.root], crls: crls, at: Date().addingTimeInterval(3 * 86_400)) == .untrustedChain
        )
    }
}
