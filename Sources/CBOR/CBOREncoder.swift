/// Encodes `CBORValue` through libcbor, definite lengths and shortest integer heads, map entries in
/// the order given (callers that need CTAP2 canonical order supply entries sorted). Meant for tests
/// and TestSupport's software authenticator; the server only decodes.
public enum CBOREncoder {
    /// Serialises one value.
    public static func encode(_ value: CBORValue) throws(CBORError) -> [UInt8] {
        try LibCBORItem.build(value).serialized()
    }
}
