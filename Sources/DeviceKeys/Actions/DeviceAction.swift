import JSON

/// A validated action for a device-key challenge: an RFC 9396 authorization detail (a JSON object with a
/// string `type`), small enough for a user to review on a phone, with its RFC 8785 canonical bytes.
///
/// The canonical bytes are what the challenge hashes (`action_sha256`) and what an action token embeds
/// verbatim as its `authorization_details` element.
public struct DeviceAction: Sendable, Hashable {
    /// Size limits an action must respect. All of them are about what a person can review before approving.
    public struct Limits: Sendable, Hashable {
        /// Maximum length of the canonical serialisation in bytes.
        public var maxCanonicalBytes: Int
        /// Maximum nesting of objects and arrays; the action object itself is depth 1.
        public var maxDepth: Int
        /// Maximum number of object members counted over the WHOLE document (all nested objects together),
        /// not per object: a per-object limit would still allow 32 × 32 × … fields. Array elements do not
        /// count here; they are bounded by `maxCanonicalBytes`.
        public var maxTotalMembers: Int
        /// Maximum length of every string, member names included, in Unicode scalars.
        public var maxStringLength: Int

        /// The defaults: 4 KiB, depth 5, 32 members in total, 255-scalar strings.
        public init(
            maxCanonicalBytes: Int = 4096, maxDepth: Int = 5, maxTotalMembers: Int = 32, maxStringLength: Int = 255
        ) {
            self.maxCanonicalBytes = maxCanonicalBytes
            self.maxDepth = maxDepth
            self.maxTotalMembers = maxTotalMembers
            self.maxStringLength = maxStringLength
        }
    }

    /// The action as parsed.
    public let value: JSONValue
    /// The action's `type` member (RFC 9396 §2).
    public let type: String
    /// The RFC 8785 canonical serialisation of `value`.
    public let canonicalBytes: [UInt8]

    /// Validates a parsed action.
    /// - Throws: the code of the violated rule (`.actionNotObject`, `.actionMissingType`, `.actionTooDeep`,
    ///   `.actionTooManyMembers`, `.actionStringTooLong`, `.actionTooLarge`), or `.invalidAuthorizationDetails`
    ///   when the value has no canonical form.
    public init(validating value: JSONValue, limits: Limits = .init()) throws(DeviceKeyError) {
        // RFC 9396 §2: each authorization detail is a JSON object with a string `type`.
        guard case .object = value else {
            throw DeviceKeyError(.actionNotObject, "the action must be a JSON object")
        }
        guard case .string(let type)? = value["type"], !type.isEmpty else {
            throw DeviceKeyError(.actionMissingType, "the action needs a non-empty string member \"type\"")
        }
        var totalMembers = 0
        try Self.check(value, depth: 1, limits: limits, totalMembers: &totalMembers)
        let canonical: [UInt8]
        do {
            canonical = try JCS.canonicalBytes(value)
        } catch {
            // RFC 8785 §3.2.2.3 / RFC 7493 §2.3: a non-finite number or a repeated name has no canonical form.
            throw DeviceKeyError(.invalidAuthorizationDetails, "not canonicalisable: \(error.code): \(error.reason)")
        }
        guard canonical.count <= limits.maxCanonicalBytes else {
            throw DeviceKeyError(
                .actionTooLarge, "maxCanonicalBytes: \(canonical.count) bytes exceed \(limits.maxCanonicalBytes)")
        }
        self.value = value
        self.type = type
        self.canonicalBytes = canonical
    }

    /// Parses (strictly: duplicate names refused) and validates an action received as JSON bytes.
    /// - Throws: the codes of `init(validating:limits:)`; `.actionTooDeep` when nesting stops the parser,
    ///   `.actionTooLarge` for input far over the size limit, `.invalidAuthorizationDetails` when it is not JSON.
    public init(jsonBytes: [UInt8], limits: Limits = .init()) throws(DeviceKeyError) {
        // Refuse oversized input before parsing it; canonical form is never larger than minimal JSON,
        // but whitespace can make the input larger, so allow some slack here and check exactly later.
        guard jsonBytes.count <= limits.maxCanonicalBytes * 4 else {
            throw DeviceKeyError(.actionTooLarge, "maxCanonicalBytes: input of \(jsonBytes.count) bytes")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue(parsing: jsonBytes, maximumDepth: limits.maxDepth)
        } catch {
            // The parser stops at `maxDepth` itself: that is the depth rule, not malformed JSON.
            let tooDeep = error.code == .nestingTooDeep
            throw DeviceKeyError(
                tooDeep ? .actionTooDeep : .invalidAuthorizationDetails, "\(error.code): \(error.reason)")
        }
        try self.init(validating: parsed, limits: limits)
    }

    /// Walks the value once, enforcing depth, total member count and string lengths.
    private static func check(
        _ value: JSONValue, depth: Int, limits: Limits, totalMembers: inout Int
    ) throws(DeviceKeyError) {
        switch value {
        case .null, .bool, .number:
            // Numbers are checked by the canonicaliser (finite doubles only).
            return
        case .string(let text):
            try checkString(text, limits: limits)
        case .array(let elements):
            guard depth <= limits.maxDepth else {
                throw DeviceKeyError(.actionTooDeep, "maxDepth: nesting deeper than \(limits.maxDepth)")
            }
            for element in elements {
                try check(element, depth: depth + 1, limits: limits, totalMembers: &totalMembers)
            }
        case .object(let members):
            guard depth <= limits.maxDepth else {
                throw DeviceKeyError(.actionTooDeep, "maxDepth: nesting deeper than \(limits.maxDepth)")
            }
            totalMembers += members.count
            guard totalMembers <= limits.maxTotalMembers else {
                throw DeviceKeyError(
                    .actionTooManyMembers, "maxTotalMembers: more than \(limits.maxTotalMembers) members in total")
            }
            for member in members {
                try checkString(member.key, limits: limits)
                try check(member.value, depth: depth + 1, limits: limits, totalMembers: &totalMembers)
            }
        }
    }

    private static func checkString(_ text: String, limits: Limits) throws(DeviceKeyError) {
        guard text.unicodeScalars.count <= limits.maxStringLength else {
            throw DeviceKeyError(
                .actionStringTooLong, "maxStringLength: a string is longer than \(limits.maxStringLength) characters")
        }
    }
}
