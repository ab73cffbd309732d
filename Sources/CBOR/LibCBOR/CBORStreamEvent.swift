/// One item head as libcbor's streaming decoder reports it (RFC 8949 §3). Containers arrive as a start
/// event with their declared count; their elements follow as further events.
enum CBORStreamEvent {
    case unsigned(UInt64)
    /// Major type 1; the value is `-1 - n`.
    case negative(UInt64)
    /// Major type 2, definite length: the payload is the last `count` bytes of what the head consumed.
    case bytes(count: Int)
    /// Major type 3, definite length, placed like `bytes`; the UTF-8 is validated by the decoder, not here.
    case text(count: Int)
    case arrayStart(UInt64)
    case mapStart(UInt64)
    case tag(UInt64)
    case float(Double)
    case bool(Bool)
    case null
    case undefined
    /// An indefinite-length start or a "break": both refused in WebAuthn's CTAP2 canonical form.
    case indefinite
}

/// The outcome of asking libcbor for the next head.
enum CBORStreamStep {
    /// One head was decoded; `consumed` bytes (head plus any string payload) were read.
    case event(CBORStreamEvent, consumed: Int)
    /// The input ends inside the head or the string payload it declares.
    case truncated
    /// libcbor refused the bytes (reserved additional information, unassigned simple value…).
    case malformed
}
