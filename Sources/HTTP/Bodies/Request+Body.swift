import Foundation
// The JSON model (`JSONValue`, `JSONMember`, `JSONWriter`, `JCS`) is part of HTTP's public surface: request
// and response bodies are written in it, so every `import HTTP` sees it too.
import JSON

/// Body decoding. Every entry point checks `Content-Type` first: a body is only read as what it says it is.
extension Request {
    /// The parsed `Content-Type`, or `nil` when absent or unparsable.
    var mediaType: MediaType? {
        headers["Content-Type"].flatMap(MediaType.init)
    }

    /// Decodes a JSON body into `T`.
    ///
    /// Strict: `Content-Type` must be `application/json` (charset, if any, UTF-8) and the body must be
    /// I-JSON (RFC 7493: UTF-8, no duplicate member names); it is parsed once and `T` decoded from the result.
    /// - Throws: `.unsupportedMediaType`, or `.malformedJSON` for bad syntax or a shape `T` cannot take.
    public func decodeJSON<T: Decodable>(_ type: T.Type) throws(HTTPError) -> T {
        try requireJSONMediaType()
        let value = try parsedBody()
        do {
            return try JSONValueDecoder().decode(T.self, from: value)
        } catch {
            throw HTTPError(.malformedJSON, "the JSON body does not fit \(T.self): \(error)")
        }
    }

    /// Parses a JSON body of any shape.
    /// - Throws: `.unsupportedMediaType` or `.malformedJSON`.
    public func jsonValue() throws(HTTPError) -> JSONValue {
        try requireJSONMediaType()
        return try parsedBody()
    }

    /// Parses a JSON body that must be an object, as a dictionary of its members.
    /// - Throws: `.unsupportedMediaType`, or `.malformedJSON` (also when the top level is not an object).
    public func jsonObject() throws(HTTPError) -> [String: JSONValue] {
        guard let object = try jsonValue().objectValue else {
            throw HTTPError(.malformedJSON, "the JSON body is not an object")
        }
        return object
    }

    /// Parses an `application/x-www-form-urlencoded` body: '+' as space, percent-decoding, UTF-8.
    ///
    /// RFC 6749 §3.1: request parameters must not be included more than once, so a repeated name is refused.
    /// - Throws: `.unsupportedMediaType` or `.malformedForm`.
    public func formParameters() throws(HTTPError) -> [String: String] {
        guard let mediaType, mediaType.essence == MediaType.form else {
            throw HTTPError(
                .unsupportedMediaType, "expected \(MediaType.form), got \(headers["Content-Type"] ?? "none")")
        }
        var parameters: [String: String] = [:]
        for (name, value) in try FormURLEncoding.decode(body) {
            guard parameters.updateValue(value, forKey: name) == nil else {
                throw HTTPError(.malformedForm, "parameter \"\(name)\" is repeated")
            }
        }
        return parameters
    }

    /// Top-level parameters of a JSON object or form body, chosen by `Content-Type` (the OAuth token
    /// endpoint accepts both); form values become `.string`.
    /// - Throws: `.unsupportedMediaType`, `.malformedJSON` or `.malformedForm`.
    public func bodyParameters() throws(HTTPError) -> [String: JSONValue] {
        if mediaType?.essence == MediaType.form {
            return try formParameters().mapValues(JSONValue.string)
        }
        return try jsonObject()
    }

    /// The body as I-JSON; the JSON module's refusal becomes `.malformedJSON`, its reason kept for the log.
    private func parsedBody() throws(HTTPError) -> JSONValue {
        do {
            return try JSONValue(parsing: body)
        } catch {
            throw HTTPError(.malformedJSON, "\(error.code): \(error.reason)")
        }
    }

    private func requireJSONMediaType() throws(HTTPError) {
        // RFC 8259 §11: the media type is application/json; §8.1: JSON exchanged between systems is UTF-8.
        guard let mediaType, mediaType.essence == MediaType.json, mediaType.isUTF8OrUnspecified else {
            throw HTTPError(
                .unsupportedMediaType, "expected \(MediaType.json), got \(headers["Content-Type"] ?? "none")")
        }
    }
}
