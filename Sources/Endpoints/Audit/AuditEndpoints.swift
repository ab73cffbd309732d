import Audit
import Foundation
import HTTP
import JSON
import Service

/// The audit log's read endpoints, on the admin listener only (operators and auditors, never the public port):
/// `GET /audit/checkpoint`, `/audit/key`, `/audit/entries?start=N&end=M`, `/audit/proof/inclusion?index=N&tree_size=S`
/// and `/audit/proof/consistency?first=A&second=B` (RFC 6962 §2.1.1 / §2.1.2, hashes in base64, each proof from
/// O(log n) stored node hashes).
package enum AuditEndpoints {

    package static func register(in router: inout Router, context: ServerContext, signer: (any NoteSigner)?) {
        let log = AuditLogReader(store: context.store, logger: context.logger)
        router.add(.get, "/audit/checkpoint") { _ in
            await answer(context) {
                guard let checkpoint = try await log.latestCheckpoint() else {
                    return notFound("no checkpoint has been signed yet")
                }
                return .text(checkpoint.note, contentType: "text/plain; charset=utf-8")
            }
        }
        router.addInline(.get, "/audit/key") { _ in
            guard let signer else { return notFound("audit.signer is \"none\": checkpoints are not signed") }
            return .text(signer.verifierKey.description + "\n", contentType: "text/plain; charset=utf-8")
        }
        router.add(.get, "/audit/entries") { request in
            await answer(context) {
                let entries = try await log.entries(
                    start: try integer(request, "start"), end: try integer(request, "end"))
                var body: [UInt8] = []
                for entry in entries {
                    body += entry
                    body.append(0x0A)
                }
                return Response(
                    status: 200, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
                    body: body)
            }
        }
        router.add(.get, "/audit/proof/inclusion") { request in
            await answer(context) {
                let index = try integer(request, "index")
                let treeSize = try integer(request, "tree_size")
                let proof = try await log.inclusionProof(index: index, treeSize: treeSize)
                return proofResponse([
                    JSONMember(key: "leaf_index", value: .number(String(index))),
                    JSONMember(key: "tree_size", value: .number(String(treeSize))), hashesMember(proof),
                ])
            }
        }
        router.add(.get, "/audit/proof/consistency") { request in
            await answer(context) {
                let first = try integer(request, "first")
                let second = try integer(request, "second")
                let proof = try await log.consistencyProof(first: first, second: second)
                return proofResponse([
                    JSONMember(key: "first", value: .number(String(first))),
                    JSONMember(key: "second", value: .number(String(second))), hashesMember(proof),
                ])
            }
        }
    }

    /// `body`'s response; a malformed parameter or a range outside the tree is 400, a failed read 503.
    private static func answer(_ context: ServerContext, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as ParameterError {
            return badRequest(error.message)
        } catch let error as AuditLogReader.RangeError {
            return badRequest(error.message)
        } catch {
            return unavailable(error, context: context)
        }
    }

    private struct ParameterError: Error {
        let message: String
    }

    private static func integer(_ request: Request, _ name: String) throws -> Int64 {
        guard let text = request.query[name], let value = Int64(text) else {
            throw ParameterError(message: "query parameter \(name) must be an integer")
        }
        return value
    }

    private static func proofResponse(_ members: [JSONMember]) -> Response {
        var response = Response.json(.object(members))
        response.headers.replace(name: "Cache-Control", value: "no-store")
        return response
    }

    /// RFC 6962 §2.1.1 / §2.1.2 proof hashes, in order, standard base64.
    private static func hashesMember(_ proof: [[UInt8]]) -> JSONMember {
        JSONMember(key: "hashes", value: .array(proof.map { .string(Data($0).base64EncodedString()) }))
    }

    private static func badRequest(_ description: String) -> Response {
        .error(status: 400, error: "invalid_request", description: description)
    }

    private static func notFound(_ description: String) -> Response {
        .error(status: 404, error: "not_found", description: description)
    }

    private static func unavailable(_ error: any Error, context: ServerContext) -> Response {
        context.logger.log(.error, "audit read failed") { $0.add("error", String(describing: error)) }
        return .error(status: 503, error: "temporarily_unavailable", description: "The audit log cannot be read now.")
    }
}
