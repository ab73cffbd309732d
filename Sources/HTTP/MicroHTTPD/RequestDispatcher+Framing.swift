internal import CMicroHTTPD

/// The checks made when a request's header fields are complete, before any of its body is read (MHD thread only).
extension RequestDispatcher {
    /// Refuses at once a request past its read deadline, one whose header section holds bytes MHD did not hand over
    /// (`ReceivedHeaderSection`), one whose target holds a NUL, one whose framing `RequestFraming` refuses, and one
    /// that declares a body over `maxBodyBytes`; otherwise lets MHD read the body. `methodText` and `version` are the
    /// access handler's pointers, into the header section; `targetLength` is the target's length as the URI log
    /// callback saw it (`CMicroHTTPD_record_target`), -1 if it saw none.
    func admit(
        _ context: RequestContext, method: HTTPMethod, methodText: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>, url: UnsafePointer<CChar>, targetLength: Int
    ) -> MHD_Result {
        // RFC 9110 §15.5.9: the headers took longer than the read timeout allows.
        if let deadline = context.readDeadline, ContinuousClock.now >= deadline {
            return refuseEarly(HTTPError(.requestTimeout, "headers complete after the read deadline"), context, url)
        }
        // RFC 9112 §5.2 (obs-fold), RFC 9110 §5.5 (NUL), RFC 9112 §2.2 (bare LF): refused, never read two ways.
        guard
            ReceivedHeaderSection.isWhole(
                connection: context.connection, method: methodText, version: version, limit: headerSectionLimit)
        else {
            let error = HTTPError(.malformedFraming, "the header section holds an obs-fold, a NUL or a bare LF")
            return refuseEarly(error, context, url)
        }
        // RFC 9112 §3.2, RFC 3986 §2: no NUL in a request target. The target runs from `url` to the space before
        // the version (both in the section, checked above); MHD's copy ends at the first NUL, so a shorter recorded
        // length means bytes after a NUL that MHD would have dropped unseen.
        guard targetLength >= 0, url.distance(to: version) - 1 == targetLength else {
            return refuseEarly(HTTPError(.malformedFraming, "the request target holds a NUL"), context, url)
        }
        let framing: RequestFraming
        do {
            framing = try RequestFraming(method: method, version: String(cString: version), headers: context.headers)
        } catch {
            return refuseEarly(error, context, url)
        }
        guard case .length(let declared) = framing, declared > 0 else { return .YES }
        guard declared <= maxBodyBytes else {
            // RFC 9110 §15.5.14: refused from the declared length, before any of the body is read (a client that
            // sent `Expect: 100-continue` never sends it); the lingering close takes what the client still sends.
            return refuseEarly(HTTPError(.bodyTooLarge, "declared \(declared) bytes"), context, url)
        }
        context.body.reserveCapacity(declared)
        return .YES
    }

    /// Queues the refusal for `error` with `Connection: close` and has the close linger: the body, if any, was not
    /// read, and the client may still be sending it (RFC 9112 §9.6).
    private func refuseEarly(_ error: HTTPError, _ context: RequestContext, _ url: UnsafePointer<CChar>) -> MHD_Result {
        let response = refusal(error, context, url: url)
        connections.lingerOnClose(context.connection)
        return queue(response, for: context, closing: true)
    }
}
