extension DeviceKeyError.Code {
    // MARK: actions: one code per rule `DeviceAction` enforces, so callers can name the rule from the code alone
    // (the reason stays free text for the log). Input that is not JSON, or has no RFC 8785 canonical form (a
    // repeated name, a non-finite number), keeps the general `invalidAuthorizationDetails`.

    /// The action is not a JSON object (RFC 9396 §2).
    public static let actionNotObject = Self(rawValue: "actionNotObject")
    /// The action has no non-empty string member `type` (RFC 9396 §2).
    public static let actionMissingType = Self(rawValue: "actionMissingType")
    /// The action nests objects and arrays deeper than `DeviceAction.Limits.maxDepth`.
    public static let actionTooDeep = Self(rawValue: "actionTooDeep")
    /// The action has more object members in total than `DeviceAction.Limits.maxTotalMembers`.
    public static let actionTooManyMembers = Self(rawValue: "actionTooManyMembers")
    /// A string or member name of the action is longer than `DeviceAction.Limits.maxStringLength`.
    public static let actionStringTooLong = Self(rawValue: "actionStringTooLong")
    /// The action is larger than `DeviceAction.Limits.maxCanonicalBytes` (canonical, or far larger as received).
    public static let actionTooLarge = Self(rawValue: "actionTooLarge")
}
