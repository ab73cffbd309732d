import Foundation
import JSON

/// An authorization request pushed to `POST /oauth/par` (RFC 9126) and checked there as `/authorize` checks one: its
/// parameters as sent, sealed into the `request_uri` the endpoint answers (`PushedRequestSealer`), so that the server
/// stores nothing and any node serves the `/authorize` that follows. `/authorize` opens it, verifies the client
/// (RFC 9126 §4) and checks the parameters again as its own.
package struct PushedAuthorizationRequest: Sendable, Equatable {
    /// How long the `request_uri` may be used (RFC 9126 §2.2 `expires_in`): long enough for the client to send the
    /// browser to `/authorize`; the page then has the hosted transaction's own lifetime.
    package static let lifetime = 90
    /// The prefix of every `request_uri` (RFC 9126 §2.2: the URN the RFC registers, §7.1).
    package static let uriPrefix = "urn:ietf:params:oauth:request_uri:"

    /// The authorization request's parameters, as pushed (`client_id` among them).
    package var parameters: [String: String]
    /// When the `request_uri` stops opening.
    package var expiresAt: Date

    package init(parameters: [String: String], expiresAt: Date) {
        self.parameters = parameters
        self.expiresAt = expiresAt
    }

    /// The `client_id` the request was pushed for.
    package var clientID: String? { parameters["client_id"] }

    /// The sealed form's plaintext: a JSON object of the parameters and the expiry's bits.
    package var plaintext: [UInt8] {
        let query = parameters.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: .string($0.value)) }
        return JSONValue.object([
            JSONMember(key: "q", value: .object(query)),
            JSONMember(key: "e", value: .number(String(expiresAt.timeIntervalSince1970.bitPattern))),
        ]).serialized()
    }

    package init?(plaintext: [UInt8]) {
        guard let value = try? JSONValue(parsing: plaintext), let object = value.objectValue,
            case .object(let members)? = object["q"], case .number(let bits)? = object["e"],
            let pattern = UInt64(bits)
        else { return nil }
        var parameters: [String: String] = [:]
        for member in members {
            guard let text = member.value.stringValue else { return nil }
            parameters[member.key] = text
        }
        let seconds = Double(bitPattern: pattern)
        guard seconds.isFinite else { return nil }
        self.init(parameters: parameters, expiresAt: Date(timeIntervalSince1970: seconds))
    }
}
