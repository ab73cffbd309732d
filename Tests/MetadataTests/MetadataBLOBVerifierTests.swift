import Crypto
import Foundation
import JSON
import TestSupport
import Testing

@testable import Metadata

@Suite("MetadataBLOBVerifier: signature, header and freshness (FIDO MDS3 §3.2)")
struct MetadataBLOBVerifierTests {
    typealias Support = MetadataTestSupport

    /// Verifies `jws` with the authority's root at the support's `now`, returning the error code.
    func code(_ jws: String, roots: [Certificate]? = nil, at time: Date = Support.now) throws -> MetadataError.Code? {
        let authority = try #require(Support.authority)
        do {
            _ = try MetadataBLOBVerifier(roots: roots ?? [authority.root]).verify(jws, at: time)
            return nil
        } catch {
            return error.code
        }
    }

    @Test(
        "a BLOB signed RS256 or ES256 by a signer chaining to the root verifies and reads its payload",
        arguments: [
            MetadataTestAuthority.Algorithm.rs256, .es256,
        ])
    func verifies(algorithm: MetadataTestAuthority.Algorithm) throws {
        let authority = try #require(Support.authority)
        let entries = [
            MetadataTestAuthority.entry(aaguid: Support.aaguid(1), status: .fidoCertifiedL2, description: "Key One")
        ]
        let jws = try authority.blob(serial: 42, nextUpdate: Support.day(30), entries: entries, alg: algorithm)
        let blob = try MetadataBLOBVerifier(roots: [authority.root]).verify(jws, at: Support.now)
        #expect(blob.serial == 42)
        #expect(MetadataDay.format(blob.nextUpdate) == Support.day(30))
        #expect(blob.legalHeader == "Test metadata: no legal meaning.")
        #expect(blob.entries.count == 1)
        #expect(blob.entries.first?.aaguid == Support.aaguid(1))
        #expect(blob.entries.first?.statement?.description == "Key One")
        #expect(blob.entries.first?.statusReports.map(\.status) == [.fidoCertifiedL2])
        #expect(blob.jws == jws)
        #expect(blob.sha256 == Digest.sha256(Array(jws.utf8)))
        #expect(blob.skippedStatements == 0)
        // As read from a file: the final newline (and whitespace around the JWS) is not part of it.
        let fromFile = try MetadataBLOBVerifier(roots: [authority.root]).verify(" \r\n" + jws + "\n", at: Support.now)
        #expect(fromFile.jws == jws && fromFile.sha256 == blob.sha256)
    }

    @Test("a changed payload, header or signature is bad_signature; the signature of the other signer too")
    func tampered() throws {
        let authority = try #require(Support.authority)
        let jws = try authority.blob(serial: 1, nextUpdate: Support.day(30), entries: [])
        let parts = jws.split(separator: ".").map(String.init)
        let otherPayload = Base64URL.encode(
            Array(#"{"legalHeader":"x","no":2,"nextUpdate":"\#(Support.day(30))","entries":[]}"#.utf8))
        #expect(try code([parts[0], otherPayload, parts[2]].joined(separator: ".")) == .badSignature)
        // The same header with a member added: the signing input changes.
        var header = try JSONValue(parsing: Base64URL.decode(parts[0]) ?? [])
        if case .object(var members) = header {
            members.append(JSONMember(key: "kid", value: .string("x")))
            header = .object(members)
        }
        let otherHeader = Base64URL.encode(header.serialized())
        #expect(try code([otherHeader, parts[1], parts[2]].joined(separator: ".")) == .badSignature)
        var signature = Base64URL.decode(parts[2]) ?? []
        signature[5] ^= 0x01
        #expect(try code([parts[0], parts[1], Base64URL.encode(signature)].joined(separator: ".")) == .badSignature)
        // An ES256 header over an RS256 signer's chain: the key does not fit the algorithm.
        let mixed = try authority.jws(
            header: .object([
                JSONMember(key: "alg", value: .string("ES256")),
                JSONMember(key: "x5c", value: .array(authority.x5c(.rs256).map(JSONValue.string))),
            ]), payload: Base64URL.decode(parts[1]) ?? [], signWith: .es256)
        #expect(try code(mixed) == .badSignature)
    }

    @Test("alg none, HS256, PS256 and a missing alg are refused before anything else")
    func algorithms() throws {
        let authority = try #require(Support.authority)
        let payload = Array(#"{"legalHeader":"x","no":1,"nextUpdate":"\#(Support.day(30))","entries":[]}"#.utf8)
        let x5c = JSONValue.array(authority.x5c(.es256).map(JSONValue.string))
        for alg in ["none", "HS256", "PS256", "RS512", "es256"] {
            let header = JSONValue.object([
                JSONMember(key: "alg", value: .string(alg)), JSONMember(key: "x5c", value: x5c),
            ])
            #expect(
                try code(authority.jws(header: header, payload: payload, signWith: .es256)) == .unsupportedAlgorithm)
        }
        // alg none as an attacker writes it: an empty signature.
        let none = Base64URL.encode(Array(#"{"alg":"none","x5c":[]}"#.utf8)) + "." + Base64URL.encode(payload) + "."
        #expect(try code(none) == .unsupportedAlgorithm)
        let noAlg = JSONValue.object([JSONMember(key: "x5c", value: x5c)])
        #expect(try code(authority.jws(header: noAlg, payload: payload, signWith: .es256)) == .malformed)
    }

    @Test("no x5c is missing_certificate_chain; an x5u is refused (offline), an empty x5c too; crit is malformed")
    func chainInHeader() throws {
        let authority = try #require(Support.authority)
        let payload = Array(#"{"legalHeader":"x","no":1,"nextUpdate":"\#(Support.day(30))","entries":[]}"#.utf8)
        let alg = JSONMember(key: "alg", value: .string("ES256"))
        let x5c = JSONMember(key: "x5c", value: .array(authority.x5c(.es256).map(JSONValue.string)))
        let cases: [(JSONValue, MetadataError.Code)] = [
            (.object([alg]), .missingCertificateChain),
            (
                .object([alg, JSONMember(key: "x5u", value: .string("https://mds.example/chain.pem"))]),
                .missingCertificateChain
            ),
            (.object([alg, JSONMember(key: "x5c", value: .array([]))]), .missingCertificateChain),
            (.object([alg, JSONMember(key: "x5c", value: .string("MIIB"))]), .malformed),
            (.object([alg, JSONMember(key: "x5c", value: .array([.string("not base64!")]))]), .malformed),
            (.object([alg, x5c, JSONMember(key: "crit", value: .array([.string("exp")]))]), .malformed),
        ]
        for (header, expected) in cases {
            #expect(try code(authority.jws(header: header, payload: payload, signWith: .es256)) == expected)
        }
    }

    @Test("nextUpdate before the time of use's UTC day is stale; the nextUpdate day itself is not")
    func staleness() throws {
        let authority = try #require(Support.authority)
        let byDate = try authority.blob(serial: 1, nextUpdate: Date().addingTimeInterval(10 * 86_400), entries: [])
        #expect(
            try MetadataBLOBVerifier(roots: [authority.root]).verify(byDate, at: Support.now).nextUpdate
                == MetadataDay.parse(Support.day(10), field: "t"))
        let jws = try authority.blob(serial: 1, nextUpdate: Support.day(10), entries: [])
        let nextUpdate = try MetadataDay.parse(Support.day(10), field: "t")
        #expect(try code(jws, at: nextUpdate.addingTimeInterval(86_399)) == nil)
        #expect(try code(jws, at: nextUpdate.addingTimeInterval(86_400)) == .stale)
        #expect(try code(jws, at: nextUpdate.addingTimeInterval(40 * 86_400)) == .stale)
    }

    @Test("the payload must carry legalHeader, a non-negative integer no, a YYYY-MM-DD nextUpdate and entries")
    func payloadShape() throws {
        let authority = try #require(Support.authority)
        let day = Support.day(30)
        let payloads = [
            #"{"no":1,"nextUpdate":"\#(day)","entries":[]}"#,
            #"{"legalHeader":"x","nextUpdate":"\#(day)","entries":[]}"#,
            #"{"legalHeader":"x","no":-1,"nextUpdate":"\#(day)","entries":[]}"#,
            #"{"legalHeader":"x","no":1.5,"nextUpdate":"\#(day)","entries":[]}"#,
            #"{"legalHeader":"x","no":"1","nextUpdate":"\#(day)","entries":[]}"#,
            #"{"legalHeader":"x","no":1,"nextUpdate":"\#(day)T00:00:00Z","entries":[]}"#,
            #"{"legalHeader":"x","no":1,"nextUpdate":"2030-02-30","entries":[]}"#,
            #"{"legalHeader":"x","no":1,"nextUpdate":"\#(day)"}"#,
            #"{"legalHeader":"x","no":1,"nextUpdate":"\#(day)","entries":{}}"#,
            #"{"legalHeader":"x","no":1,"nextUpdate":"\#(day)","entries":[{"aaguid":"nope","statusReports":[]}]}"#,
            #"{"legalHeader":"x","no":1,"nextUpdate":"\#(day)","entries":[{"aaguid":"\#(UUIDText.format(Support.aaguid(1)))"}]}"#,
            #"[1,2]"#, #"{"a":1,"a":2}"#, "not json",
        ]
        let header = JSONValue.object([
            JSONMember(key: "alg", value: .string("ES256")),
            JSONMember(key: "x5c", value: .array(authority.x5c(.es256).map(JSONValue.string))),
        ])
        for payload in payloads {
            let jws = try authority.jws(header: header, payload: Array(payload.utf8), signWith: .es256)
            #expect(try code(jws) == .malformed, "\(payload)")
        }
    }

    @Test("truncated, garbled and oversized inputs are malformed, never a crash")
    func garbage() throws {
        let authority = try #require(Support.authority)
        let jws = try authority.blob(
            serial: 1, nextUpdate: Support.day(30),
            entries: [MetadataTestAuthority.entry(aaguid: Support.aaguid(1))])
        // Every prefix length class: inside the header, the payload, the signature.
        for length in stride(from: 0, to: jws.utf8.count, by: max(1, jws.utf8.count / 97)) {
            let prefix = String(decoding: Array(jws.utf8).prefix(length), as: UTF8.self)
            #expect(try code(prefix) != nil)
        }
        for text in ["", ".", "..", "...", "a.b.c", "\u{0}", String(repeating: "A", count: 10_000)] {
            #expect(try code(text) == .malformed)
        }
        // Signed, so the payload parser itself sees every truncation of a real payload and every byte flipped to a
        // quote, a brace or a NUL: each is malformed or, when it still reads, a BLOB.
        let payload = Array(Base64URL.decode(jws.split(separator: ".")[1]) ?? [])
        let header = JSONValue.object([
            JSONMember(key: "alg", value: .string("ES256")),
            JSONMember(key: "x5c", value: .array(authority.x5c(.es256).map(JSONValue.string))),
        ])
        var mutants: [[UInt8]] = []
        for position in stride(from: 0, to: payload.count, by: max(1, payload.count / 61)) {
            mutants.append(Array(payload.prefix(position)))
            for byte: UInt8 in [0x22, 0x7D, 0x00] {
                var flipped = payload
                flipped[position] = byte
                mutants.append(flipped)
            }
        }
        for mutant in mutants {
            let code = try code(authority.jws(header: header, payload: mutant, signWith: .es256))
            #expect(code == nil || code == .malformed)
        }
        let oversized = String(repeating: "A", count: MetadataBLOBVerifier.maximumJWSBytes + 1)
        #expect(try code(oversized) == .malformed)
    }
}
