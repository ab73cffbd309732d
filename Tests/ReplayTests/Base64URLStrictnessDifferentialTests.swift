import Crypto
import Foundation
import JSON
import TestSupport
import Testing

@testable import Replay
@testable import WebAuthn

/// Verification is equally strict on every path: every recorded ceremony (Fixtures/ceremonies and
/// the shared folder), and one-character variants of each of its base64url members, go through every path that
/// reads them — the registration and the authentication reading of the same members, clientDataJSON's reading and
/// replay — and must get the same verdict; a variant (padded, standard alphabet, whitespace) is never
/// base64url without padding (WebAuthn L3 §3, RFC 4648 §5), so that verdict is a refusal.
@Suite("base64url strictness: the same verdict on every path, for every recording")
struct Base64URLStrictnessDifferentialTests {
    /// Every recording, with its path.
    static let recordings: [(path: String, ceremony: RecordedCeremony)] = (try? FixtureLoader.allCeremonies()) ?? []

    /// One-character variants of base64url `text`: `=` and `==` appended, a character replaced with the standard
    /// alphabet's `+` and `/`, a space and a line feed inserted.
    static func variants(of text: String) -> [(label: String, text: String)] {
        var variants = [("'=' appended", text + "="), ("'==' appended", text + "==")]
        let characters = Array(text)
        guard !characters.isEmpty else { return variants }
        let middle = characters.count / 2
        for replacement in ["+", "/"] {
            var changed = characters
            changed[middle] = Character(replacement)
            variants.append(("'\(replacement)' at \(middle)", String(changed)))
        }
        for (name, inserted) in [("space", " "), ("line feed", "\n")] {
            var changed = characters
            changed.insert(Character(inserted), at: middle)
            variants.append(("\(name) at \(middle)", String(changed)))
        }
        return variants
    }

    /// The verdict of a replay: `nil` when it verified, else the refusal's code.
    static func verdict(_ ceremony: RecordedCeremony) -> WebAuthnError.Code? {
        let prepared = PreparedCeremony(ceremony)
        do {
            switch ceremony.ceremony {
            case .registration: _ = try prepared.verifyRegistration()
            case .authentication: _ = try prepared.verifyAuthentication()
            }
            return nil
        } catch {
            return error.code
        }
    }

    @Test("every recording is found: Fixtures/ceremonies and the shared folder")
    func recordingsFound() {
        #expect(Self.recordings.count >= FixtureLoader.ceremonyPaths().count)
        #expect(Self.recordings.count >= 284)
    }

    @Test("a variant of any base64url member is refused by replay, as the token endpoint refuses it")
    func memberVariantsRefused() throws {
        for recording in Self.recordings {
            let ceremony = recording.ceremony
            let original = Self.verdict(ceremony)
            // Refusals that come before the verifier runs: reading the response, and (authentication) parsing the
            // stored key. An `id` variant keeps such a refusal, as at the endpoint; after it, `id` is compared with
            // `rawId` (§5.1), the verifier's first check.
            let beforeVerifier: Set<WebAuthnError.Code> =
                ceremony.ceremony == .authentication
                ? [.malformedResponse, .unsupportedAlgorithm, .malformedCOSEKey] : [.malformedResponse]
            for path in Self.members(of: ceremony.response) {
                // A recording of a malformed response may lack the member.
                guard let text = Self.value(ceremony.response, path) else { continue }
                for variant in Self.variants(of: text) {
                    let response = Self.setting(ceremony.response, path, variant.text)
                    let verdict = Self.verdict(Self.replacing(ceremony, response: response))
                    // Every member but `id` fails to decode: malformedResponse.
                    let expected: WebAuthnError.Code =
                        path.last != "id"
                        ? .malformedResponse
                        : original.map { beforeVerifier.contains($0) } == true
                            ? original ?? .malformedResponse
                            : .credentialIDMismatch
                    let name = "\(ceremony.name) \(path.joined(separator: ".")) \(variant.label)"
                    #expect(verdict == expected, "\(name): \(String(describing: verdict))")
                }
            }
        }
    }

    /// The base64url members of a recorded response, by path below it.
    static func members(of response: JSONValue) -> [[String]] {
        var members: [[String]] = [["id"], ["rawId"]]
        for name in ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]
        where response["response"]?[name]?.stringValue != nil {
            members.append(["response", name])
        }
        return members
    }

    /// The string at `path` below `value`.
    static func value(_ value: JSONValue, _ path: [String]) -> String? {
        path.reduce(Optional(value)) { current, key in current?[key] }?.stringValue
    }

    /// `value` with the member at `path` set to the string `text`.
    static func setting(_ value: JSONValue, _ path: [String], _ text: String) -> JSONValue {
        guard let key = path.first, case .object(let members) = value else { return value }
        return .object(
            members.map { member in
                guard member.key == key else { return member }
                let changed = path.count == 1 ? .string(text) : setting(member.value, Array(path.dropFirst()), text)
                return JSONMember(key: key, value: changed)
            })
    }

    /// `ceremony` with another response (the relying party's side and the expectation unchanged).
    static func replacing(_ ceremony: RecordedCeremony, response: JSONValue) -> RecordedCeremony {
        RecordedCeremony(
            name: ceremony.name, source: ceremony.source, ceremony: ceremony.ceremony, rpId: ceremony.rpId,
            origins: ceremony.origins, challenge: ceremony.challenge,
            userVerificationRequired: ceremony.userVerificationRequired, allowCrossOrigin: ceremony.allowCrossOrigin,
            topOrigins: ceremony.topOrigins, verifyAt: ceremony.verifyAt, trustAnchorsPEM: ceremony.trustAnchorsPEM,
            response: response, credentialPublicKey: ceremony.credentialPublicKey,
            storedSignCount: ceremony.storedSignCount, allowedAlgorithms: ceremony.allowedAlgorithms,
            userHandle: ceremony.userHandle, storedBackupEligible: ceremony.storedBackupEligible,
            storedBackedUp: ceremony.storedBackedUp, expect: ceremony.expect)
    }

    @Test("the registration and the authentication reading judge the members both read alike, variants included")
    func readingsAgree() throws {
        for recording in Self.recordings {
            guard case .object(let members) = recording.ceremony.response,
                case .object(var body)? = members.first(where: { $0.key == "response" })?.value
            else { continue }
            // The members only one reading reads are set to valid base64url (or dropped: userHandle, transports),
            // so that both readings run and differ in nothing but the members both read.
            let oneReading = ["userHandle", "transports", "attestationObject", "authenticatorData", "signature"]
            body.removeAll { oneReading.contains($0.key) }
            for name in ["attestationObject", "authenticatorData", "signature"] {
                body.append(JSONMember(key: name, value: .string("AAAA")))
            }
            for (member, inBody) in [("rawId", false), ("clientDataJSON", true)] {
                let holder = inBody ? body : members
                guard let text = holder.first(where: { $0.key == member })?.value.stringValue else { continue }
                for variant in [(label: "as recorded", text: text)] + Self.variants(of: text) {
                    func replaced(_ list: [JSONMember]) -> [JSONMember] {
                        list.map { $0.key == member ? JSONMember(key: member, value: .string(variant.text)) : $0 }
                    }
                    let changedBody = inBody ? replaced(body) : body
                    let changedMembers = (inBody ? members : replaced(members)).map {
                        $0.key == "response" ? JSONMember(key: "response", value: .object(changedBody)) : $0
                    }
                    let json = JSONValue.object(changedMembers)
                    let registration = Result { () throws(WebAuthnError) in
                        try PublicKeyCredentialJSON(json: json).registration().clientDataJSON
                    }
                    let authentication = Result { () throws(WebAuthnError) in
                        try PublicKeyCredentialJSON(json: json).authentication().clientDataJSON
                    }
                    let name = "\(recording.ceremony.name) \(member) \(variant.label)"
                    #expect(Self.code(registration) == Self.code(authentication), "\(name)")
                    if variant.label != "as recorded" {
                        #expect(Self.code(registration) == .malformedResponse, "\(name)")
                    }
                }
            }
        }
    }

    @Test("every recording's challenge, respelled, is challengeMismatch in clientDataJSON's reading and in replay")
    func challengeSpellingsRefused() throws {
        for recording in Self.recordings {
            let ceremony = recording.ceremony
            guard let clientDataText = ceremony.response["response"]?["clientDataJSON"]?.stringValue,
                let clientData = Base64URL.decode(clientDataText),
                let challengeText = (try? JSONValue(parsing: clientData))?["challenge"]?.stringValue,
                let expectedChallenge = Base64URL.decode(ceremony.challenge)
            else { continue }
            let policy = OriginPolicy(
                allowedOrigins: ceremony.origins, allowsCrossOrigin: ceremony.allowCrossOrigin ?? false,
                allowedTopOrigins: ceremony.topOrigins ?? [])
            let type = ceremony.ceremony == .registration ? "webauthn.create" : "webauthn.get"
            func verdict(_ bytes: [UInt8]) -> WebAuthnError.Code? {
                Self.code(
                    Result { () throws(WebAuthnError) in
                        try CollectedClientData(bytes: bytes).verify(
                            type: type, challenge: expectedChallenge, originPolicy: policy)
                    })
            }
            let original = verdict(clientData)
            // The challenge member respelled: padded, the standard alphabet with and without padding, whitespace.
            // (A recording of a wrong challenge keeps its own bytes, respelled.)
            var spellings = [challengeText + "=", challengeText + "=="]
            if let sent = Base64URL.decode(challengeText) {
                let standard = Data(sent).base64EncodedString()
                spellings += [standard, standard.replacingOccurrences(of: "=", with: "")]
            }
            spellings += Self.variants(of: challengeText).filter { !$0.text.contains("\n") }.map(\.text)
            let quoted = "\"\(challengeText)\""
            guard let text = String(bytes: clientData, encoding: .utf8), text.contains(quoted) else { continue }
            for spelling in Set(spellings) where spelling != challengeText {
                let respelled = Array(text.replacingOccurrences(of: quoted, with: "\"\(spelling)\"").utf8)
                let respelledVerdict = verdict(respelled)
                // §7.1 step 8 / §7.2 step 12 compare the text: any other spelling is another challenge. A recording
                // refused before the challenge step (its type, say) keeps that refusal.
                let expected =
                    original == .typeMismatch || original == .malformedClientData ? original : .challengeMismatch
                #expect(
                    respelledVerdict == expected,
                    "\(ceremony.name) challenge \(spelling): \(String(describing: respelledVerdict))")
            }
            // And through replay, with the respelled clientDataJSON re-encoded: the same refusal as above.
            if original == nil, Self.verdict(ceremony) == nil {
                let respelled = Array(text.replacingOccurrences(of: quoted, with: "\"\(challengeText)=\"").utf8)
                let replayed = Self.replacing(
                    ceremony,
                    response: Self.setting(
                        ceremony.response, ["response", "clientDataJSON"], Base64URL.encode(respelled)))
                #expect(Self.verdict(replayed) == .challengeMismatch, "\(ceremony.name): replay of a padded challenge")
            }
        }
    }

    static func code<Success>(_ result: Result<Success, WebAuthnError>) -> WebAuthnError.Code? {
        guard case .failure(let error) = result else { return nil }
        return error.code
    }
}
