import Crypto
import WebAuthn

/// The `expect` member of a recording, decoded once into bytes and numbers so a benchmark can check
/// every timed verification against it without formatting text. It agrees with `CeremonyReplayer`'s
/// field-by-field comparison: a field absent from the recording is not compared, and a text value no
/// verifier output can print as (non-canonical base64url, an upper-case or malformed AAGUID after
/// lower-casing) never matches.
struct RecordedOutcomeCheck: Sendable {
    /// One expected binary field.
    enum ExpectedBytes: Sendable {
        /// The recording does not name the field.
        case unchecked
        /// The field must equal these bytes.
        case equal([UInt8])
        /// The recording names a value no output encodes to.
        case unmatchable

        /// From canonical base64url text (what `Base64URL.encode` prints, the one spelling `decode` accepts).
        init(base64URL text: String?) {
            guard let text else {
                self = .unchecked
                return
            }
            guard let bytes = Base64URL.decode(text) else {
                self = .unmatchable
                return
            }
            self = .equal(bytes)
        }

        /// From AAGUID text, compared lower-cased with `UUIDText.format`'s 8-4-4-4-12 form.
        init(aaguid text: String?) {
            guard let text else {
                self = .unchecked
                return
            }
            let lowered = text.lowercased()
            let digits = lowered.filter { $0 != "-" }
            var bytes: [UInt8] = []
            var index = digits.startIndex
            while index < digits.endIndex {
                let next = digits.index(index, offsetBy: 2, limitedBy: digits.endIndex) ?? digits.endIndex
                guard let byte = UInt8(digits[index..<next], radix: 16) else {
                    self = .unmatchable
                    return
                }
                bytes.append(byte)
                index = next
            }
            self = bytes.count == 16 && UUIDText.format(bytes) == lowered ? .equal(bytes) : .unmatchable
        }

        /// Whether `actual` is acceptable.
        func accepts(_ actual: [UInt8]) -> Bool {
            switch self {
            case .unchecked: true
            case .equal(let bytes): bytes == actual
            case .unmatchable: false
            }
        }
    }

    let ok: Bool
    /// The code a refusal must carry, when the recording names one.
    let errorCode: WebAuthnError.Code?
    let format: String?
    let credentialID: ExpectedBytes
    let aaguid: ExpectedBytes
    let signCount: UInt32?
    let credentialPublicKey: ExpectedBytes
    let userVerified: Bool?
    let backupEligible: Bool?
    let backedUp: Bool?
    let newSignCount: UInt32?

    init(_ expect: RecordedCeremony.Expectation) {
        ok = expect.ok
        errorCode = expect.errorCode
        format = expect.fmt
        credentialID = ExpectedBytes(base64URL: expect.credentialId)
        aaguid = ExpectedBytes(aaguid: expect.aaguid)
        signCount = expect.signCount
        credentialPublicKey = ExpectedBytes(base64URL: expect.credentialPublicKey)
        userVerified = expect.userVerified
        backupEligible = expect.backupEligible
        backedUp = expect.backedUp
        newSignCount = expect.newSignCount
    }

    /// Whether a registration outcome is the recorded one.
    func matches(_ outcome: Result<VerifiedRegistration, WebAuthnError>) -> Bool {
        guard case .success(let verified) = outcome else { return refusalMatches(outcome) }
        return ok && (format.map { $0 == verified.format } ?? true)
            && credentialID.accepts(verified.credentialID) && aaguid.accepts(verified.aaguid)
            && (signCount.map { $0 == verified.signCount } ?? true)
            && credentialPublicKey.accepts(verified.credentialPublicKey.rawBytes)
            && (userVerified.map { $0 == verified.userVerified } ?? true)
            && (backupEligible.map { $0 == verified.backupEligible } ?? true)
            && (backedUp.map { $0 == verified.backedUp } ?? true)
    }

    /// Whether an authentication outcome is the recorded one.
    func matches(_ outcome: Result<VerifiedAssertion, WebAuthnError>) -> Bool {
        guard case .success(let verified) = outcome else { return refusalMatches(outcome) }
        return ok && (newSignCount.map { $0 == verified.newSignCount } ?? true)
            && (userVerified.map { $0 == verified.userVerified } ?? true)
    }

    /// Whether a refusal is the recorded one: a refusal was expected, with the recorded code if any.
    private func refusalMatches<Verified>(_ outcome: Result<Verified, WebAuthnError>) -> Bool {
        guard !ok, case .failure(let error) = outcome else { return false }
        return errorCode.map { $0 == error.code } ?? true
    }
}
