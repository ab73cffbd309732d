extension HTTPError {
    /// The response a handler returns for this error, so every handler can `catch` uniformly.
    ///
    /// Codes map to fixed descriptions; the `reason` stays in the logs and never reaches the client.
    /// RFC 6749 §5.2: a malformed request is `400 invalid_request`.
    public var response: Response {
        switch code {
        case .malformedJSON:
            return .error(status: 400, error: "invalid_request", description: "The request body is not valid JSON.")
        case .malformedForm:
            return .error(
                status: 400, error: "invalid_request", description: "The request body is not a valid form.")
        case .unsupportedMediaType:
            // RFC 9110 §15.5.16
            return .error(
                status: 415, error: "invalid_request", description: "The request's Content-Type is not supported.")
        case .bodyTooLarge:
            // RFC 9110 §15.5.14
            return .error(
                status: 413, error: "request_too_large", description: "The request body is too large.")
        case .malformedFraming:
            // RFC 9112 §6.1, §6.3: a request whose body length cannot be determined reliably is refused with 400.
            return .error(
                status: 400, error: "invalid_request", description: "The request's message framing is invalid.")
        case .methodNotImplemented:
            // RFC 9110 §15.6.2
            return .error(
                status: 501, error: "not_implemented", description: "The request method is not implemented.")
        case .transferCodingNotImplemented:
            // RFC 9112 §6.1: a transfer coding the server does not understand.
            return .error(
                status: 501, error: "not_implemented", description: "The transfer coding is not implemented.")
        case .requestTimeout:
            // RFC 9110 §15.5.9
            return .error(
                status: 408, error: "request_timeout", description: "The request was not received in time.")
        default:
            return .error(status: 500, error: "server_error", description: "Internal server error.")
        }
    }
}
