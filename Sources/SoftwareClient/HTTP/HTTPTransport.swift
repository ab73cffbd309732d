/// One HTTP/1.1 exchange as a passkey client needs it: POST a JSON body, get the status and the body back.
/// Each client owns one transport and uses it from one thread only.
package protocol HTTPTransport {
    /// POSTs `body` as `application/json` to `path` and returns the status and the response body.
    func post(_ path: String, body: [UInt8]) throws(SoftwareClientError) -> (status: Int, body: [UInt8])
    /// GETs `path` and returns the status and the response body.
    func get(_ path: String) throws(SoftwareClientError) -> (status: Int, body: [UInt8])
}
