import Crypto
import Foundation

/// Reads the members of an options object the server sent, with the error the software authenticator throws.
struct OptionsJSON {
    let object: [String: Any]

    /// Parses `json`; when it is a whole `/passkey/register` or `/passkey/challenge` response, descends into
    /// `authn_params_public_key` and keeps `auth_session` beside it.
    static func parse(_ json: [UInt8]) throws(SoftwareClientError) -> (options: OptionsJSON, authSession: String?) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw SoftwareClientError(.malformedOptions, "options are not JSON: \(error)")
        }
        guard let root = parsed as? [String: Any] else {
            throw SoftwareClientError(.malformedOptions, "options are not a JSON object")
        }
        if let inner = root["authn_params_public_key"] {
            guard let options = inner as? [String: Any] else {
                throw SoftwareClientError(.malformedOptions, "authn_params_public_key is not an object")
            }
            return (OptionsJSON(object: options), root["auth_session"] as? String)
        }
        return (OptionsJSON(object: root), nil)
    }

    func string(_ key: String, in object: [String: Any]? = nil) throws(SoftwareClientError) -> String {
        guard let value = (object ?? self.object)[key] as? String else {
            throw SoftwareClientError(.malformedOptions, "\(key) is missing or not a string")
        }
        return value
    }

    func optionalString(_ key: String) -> String? { object[key] as? String }

    func bytes(_ key: String, in object: [String: Any]? = nil) throws(SoftwareClientError) -> [UInt8] {
        let text = try string(key, in: object)
        guard let bytes = Base64URL.decode(text) else {
            throw SoftwareClientError(.malformedOptions, "\(key) is not base64url")
        }
        return bytes
    }

    func object(_ key: String) throws(SoftwareClientError) -> [String: Any] {
        guard let value = object[key] as? [String: Any] else {
            throw SoftwareClientError(.malformedOptions, "\(key) is missing or not an object")
        }
        return value
    }

    func int(_ key: String) -> Int? { Self.integer(object[key]) }

    /// A JSON number as an integer, whichever way JSONSerialization bridged it.
    static func integer(_ value: Any?) -> Int? {
        if let integer = value as? Int { return integer }
        return (value as? NSNumber)?.intValue
    }
}
