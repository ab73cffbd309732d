/// The fields an endpoint parsed from a request, or the refusal of a malformed one, handed to a flow as they are.
///
/// The flow reads them (`get()`) at the step of its rule where the fields are needed, so the order of the answers is
/// the flow's and not the parser's: a refusal that comes first — the key is not the caller's, the step-up is
/// missing, the client takes no attestation — is answered, and recorded, whatever the rest of the body holds.
package typealias RequestFields<Fields: Sendable> = Result<Fields, any Error>
