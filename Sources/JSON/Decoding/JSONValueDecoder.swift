/// Decodes `Decodable` types from a parsed `JSONValue`, so that a JSON text is parsed once, by
/// `JSONValue(parsing:)`, with its I-JSON checks (RFC 7493), and `Codable` structs still read it.
///
/// Follows Foundation's `JSONDecoder` with default options for everything passkeyd's types use: strings,
/// booleans, integers with exact range checks (a number with a fraction or exponent decodes as an integer
/// only when it is one exactly), `Double`/`Float`, optionals, nested containers, arrays and dictionaries, and
/// throws the same `DecodingError` cases with the coding path. A `JSONValue` member is taken as it is, member
/// order and number text included, where `JSONDecoder` rebuilds it through `Codable`. `Date` decodes as
/// `JSONDecoder`'s default does (seconds since 2001 through `Date`'s own `Decodable`); `Data` is not special-cased
/// (no type of ours decodes it).
public struct JSONValueDecoder: Sendable {
    /// Handed to the types being decoded as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// A decoder with no user info.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Decodes `type` from `value`.
    /// - Throws: a `DecodingError` (type mismatch, missing key or value, number out of range), or whatever
    ///   the type's `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoding(value, codingPath: [], userInfo: userInfo).decode(type)
    }
}
