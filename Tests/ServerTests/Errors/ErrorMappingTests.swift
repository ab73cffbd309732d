import Crypto
import HTTP
import Storage
import TestSupport
import Testing
import Tokens
import WebAuthn

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

@Suite("Error mapping: module errors to Auth0's error shape")
struct ErrorMappingTests {
    @Test("every `error` value (OAuthError.Kind) is snake_case, as RFC 6749 §5.2 spells them, and unique")
    func kindSpelling() {
        #expect(ErrorCodeSpelling.violations(of: OAuthError.Kind.self) == [])
    }

    @Test(
        "every WebAuthn code is invalid_grant 403 with one description", arguments: WebAuthnError.Code.allCases)
    func webAuthn(code: WebAuthnError.Code) {
        let mapped = ErrorMapping.oauthError(for: WebAuthnError(code, "detail"))
        #expect(mapped.kind == .invalidGrant)
        #expect(mapped.kind.status == 403)
        #expect(mapped.clientDescription == "The passkey could not be verified.")
        #expect(mapped.logCode == code.rawValue)
    }

    @Test(
        "storage codes",
        arguments: [
            (StorageError.Code.conflict, OAuthError.Kind.invalidGrant), (.notFound, .invalidGrant),
            (.busy, .temporarilyUnavailable), (.unavailable, .temporarilyUnavailable),
            (.io, .serverError), (.closed, .serverError), (.corrupt, .temporarilyUnavailable),
            (.internalFailure, .serverError),
            (.invalidRecord, .serverError), (.migration, .serverError),
        ])
    func storage(code: StorageError.Code, kind: OAuthError.Kind) {
        #expect(ErrorMapping.oauthError(for: StorageError(code, "detail")).kind == kind)
    }

    @Test(
        "token codes",
        arguments: [
            (TokenError.Code.malformedRefreshToken, OAuthError.Kind.invalidGrant), (.expired, .invalidToken),
            (.invalidSignature, .invalidToken), (.unknownKey, .invalidToken), (.invalidAudience, .invalidToken),
            (.signingFailed, .serverError), (.unusableKey, .serverError), (.invalidClaim, .serverError),
            (.dpopMalformed, .invalidDPoPProof), (.dpopKeyMismatch, .invalidDPoPProof), (.dpopStale, .invalidDPoPProof),
            (.dpopNonceRequired, .useDPoPNonce),
        ])
    func token(code: TokenError.Code, kind: OAuthError.Kind) {
        #expect(ErrorMapping.oauthError(for: TokenError(code, "detail")).kind == kind)
    }

    @Test("statuses follow RFC 6749 and Auth0")
    func statuses() {
        #expect(OAuthError.Kind.invalidRequest.status == 400)
        #expect(OAuthError.Kind.invalidClient.status == 401)
        #expect(OAuthError.Kind.unauthorizedClient.status == 403)
        #expect(OAuthError.Kind.invalidGrant.status == 403)
        #expect(OAuthError.Kind.unsupportedGrantType.status == 400)
        #expect(OAuthError.Kind.tooManyRequests.status == 429)
        #expect(OAuthError.Kind.serverError.status == 500)
    }

    @Test("HTTP body errors are invalid_request; anything unknown is a logged server_error")
    func others() {
        #expect(ErrorMapping.oauthError(for: HTTPError(.malformedJSON, "x")).kind == .invalidRequest)
        #expect(ErrorMapping.oauthError(for: HTTPError(.unsupportedMediaType, "x")).kind == .invalidRequest)
        // A write withdrawn because the deadline or shutdown answered first: the same 503 the client got.
        #expect(ErrorMapping.oauthError(for: HTTPError(.requestWithdrawn, "x")).response.status == 503)
        // So is a request's task cancelled (by that deadline) while it waited for a database connection.
        let cancelled = ErrorMapping.oauthError(for: CancellationError())
        #expect(cancelled.response.status == 503 && cancelled.logCode == "http_request_withdrawn")
        #expect(ErrorMapping.oauthError(for: CryptoError(.randomFailure, "x")).kind == .serverError)
        struct Strange: Error {}
        let mapped = ErrorMapping.oauthError(for: Strange())
        #expect(mapped.kind == .serverError)
        #expect(mapped.response.status == 500)
        #expect(
            String(decoding: mapped.response.body, as: UTF8.self)
                == #"{"error":"server_error","error_description":"Internal server error."}"#)
    }

    @Test("429 carries Retry-After")
    func retryAfter() {
        let response = OAuthError(.tooManyRequests, "slow down", logCode: "x", retryAfter: 12).response
        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "12")
    }
}
