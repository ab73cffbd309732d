import HTTP
import Service
import Storage

/// The write gate of a request (`WriteGate`): a write begins only by committing the request it serves
/// (`RequestCommitment`), so the HTTP layer never answers 503 for a request whose write commits, and a request
/// already answered 503 writes nothing (`HTTPError.requestWithdrawn`). Outside a request there is no commitment and
/// writes pass.
package struct RequestCommitmentGate: WriteGate {
    package init() {}

    package func admission() -> WriteAdmission? {
        guard let commitment = RequestCommitment.current else { return nil }
        return WriteAdmission(deadline: commitment.deadline) { try commitment.commit() }
    }
}
