import Foundation
import JSON

/// The registered claims (RFC 7519 §4.1) the verifier judges, read from the payload.
struct RegisteredClaims: Decodable {
    let issuer: String
    let subject: String?
    let audience: [String]
    let expiresAt: Date
    let issuedAt: Date?
    let notBefore: Date?
    let jwtID: String?

    private enum CodingKeys: String, CodingKey { case iss, sub, aud, exp, iat, nbf, jti }

    /// Decodes a payload the verifier parsed (a JSON object): `.missingClaim` without `exp` or `iss`,
    /// `.invalidClaim` for a claim of the wrong type.
    init(payload: JSONValue) throws(TokenError) {
        do {
            self = try JSONValueDecoder().decode(RegisteredClaims.self, from: payload)
        } catch let error as TokenError {
            throw error
        } catch {
            throw TokenError(.invalidClaim, "a registered claim has the wrong type")
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // We always issue exp and iss; a token without them is not one of ours.
        guard container.contains(.exp), container.contains(.iss) else {
            throw TokenError(.missingClaim, "exp and iss are required")
        }
        self.issuer = try container.decode(String.self, forKey: .iss)
        self.subject = try container.decodeIfPresent(String.self, forKey: .sub)
        // RFC 7519 §4.1.3: aud is a string or an array of strings.
        if let single = try? container.decode(String.self, forKey: .aud) {
            self.audience = [single]
        } else {
            self.audience = try container.decodeIfPresent([String].self, forKey: .aud) ?? []
        }
        guard let expiresAt = try Self.numericDate(container, .exp) else {
            throw TokenError(.missingClaim, "exp is null")
        }
        self.expiresAt = expiresAt
        self.issuedAt = try Self.numericDate(container, .iat)
        self.notBefore = try Self.numericDate(container, .nbf)
        self.jwtID = try container.decodeIfPresent(String.self, forKey: .jti)
    }

    /// RFC 7519 §2 NumericDate: a JSON number of seconds, possibly fractional.
    private static func numericDate(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date?
    {
        guard let seconds = try container.decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard seconds.isFinite else { throw TokenError(.invalidClaim, "\(key.rawValue) is not finite") }
        return Date(timeIntervalSince1970: seconds)
    }
}
