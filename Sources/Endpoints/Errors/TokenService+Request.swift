import HTTP
import Service
import Tokens

extension PresentedCredentials {
    /// What `request` presents: its `Authorization` and `DPoP` headers, method and path.
    package init(_ request: Request) {
        self.init(
            authorization: request.headers["Authorization"], dpopProofs: request.headers.values(for: "DPoP"),
            method: request.method.rawValue, path: request.path)
    }
}

extension TokenService {
    /// `authenticate(_:audience:checkingSession:)` on what `request` presents.
    package func authenticate(_ request: Request, audience: String? = nil, checkingSession: Bool = true) async throws
        -> AuthenticatedSubject
    {
        try await authenticate(PresentedCredentials(request), audience: audience, checkingSession: checkingSession)
    }

    /// `checkDPoP(_:accessToken:boundThumbprint:)` on what `request` presents.
    package func checkDPoP(_ request: Request, accessToken: String? = nil, boundThumbprint: String? = nil)
        async throws -> VerifiedDPoPProof?
    {
        try await checkDPoP(PresentedCredentials(request), accessToken: accessToken, boundThumbprint: boundThumbprint)
    }
}
