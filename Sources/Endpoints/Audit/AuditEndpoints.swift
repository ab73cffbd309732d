import Audit
import Foundation
import HTTP
import JSON
import Service
import Storage

/// The audit log's read endpoints, on the admin listener only (operators and auditors, never the public port):
/// `GET /audit/checkpoint`, `/audit/key`, `/audit/entries?start=N&end=M`, `/audit/proof/inclusion?index=N&tree_size=S`
/// and `/audit/proof/consistency?first=A&second=B` (RFC 6962 §2.1.1 / §2.1.2, hashes in base64, each proof from
/// O(log n) stored node hashes).
package enum AuditEndpoints {

    package static func register(in router: inout Router, context: ServerContext, signer: (any NoteSigner)?) {
        let store = context.store
        router.add(.get, "/audit/checkpoint") { _ in
            do {
                guard let checkpoint = try await store.read({ try $0.latestAuditCheckpoint() }) else {
                    return notFound("no checkpoint has been signed yet")
                }
                return .text(checkpoint.note, contentType: "text/plain; charset=utf-8")
            } catch {
                return unavailable(error, context: context)
            }
        }
        router.add(.get, "/audit/key") { _ in
            guard let signer else { return notFound("audit.signer is \"none\": checkpoints are not signed") }
            return .text(signer.verifierKey.description + "\n", contentType: "text/plain; charset=utf-8")
        }
        router.add(.get, "/audit/entries") { request in
            do {
                let start = try integer(request, "start")
                let end = try integer(request, "end")
                let size = try await store.read { try $0.auditTree().size }
                guard start >= 0, start < end, end <= size, end - start <= AuditService.maxEntriesPerCall else {
                    return badRequest(
                        "need 0 <= start < end <= \(size) (the tree size) and at most \(AuditService.maxEntriesPerCall) entries"
                    )
                }
                let leaves = try await store.read { try $0.auditLeaves(start: start, end: end) }
                var body: [UInt8] = []
                for leaf in leaves {
                    body += leaf.entry
                    body.append(0x0A)
                }
                return Response(
                    status: 200, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
                    body: body)
            } catch let error as ParameterError {
                return badRequest(error.message)
            } catch {
                return unavailable(error, context: context)
            }
        }
        router.add(.get, "/audit/proof/inclusion") { request in
            do {
                let index = try integer(request, "index")
                let treeSize = try integer(request, "tree_size")
                // RFC 6962 §2.1.1: PATH(m, D[n]) is defined for 0 <= m < n.
                guard let plan = try? MerkleProofPlan.inclusion(index: index, treeSize: treeSize),
                    let proof = try await proofHashes(plan, treeSize: treeSize, store: store, context: context)
                else { return badRequest("need 0 <= index < tree_size <= the tree size") }
                return proofResponse([
                    JSONMember(key: "leaf_index", value: .number(String(index))),
                    JSONMember(key: "tree_size", value: .number(String(treeSize))), hashesMember(proof),
                ])
            } catch let error as ParameterError {
                return badRequest(error.message)
            } catch {
                return unavailable(error, context: context)
            }
        }
        router.add(.get, "/audit/proof/consistency") { request in
            do {
                let first = try integer(request, "first")
                let second = try integer(request, "second")
                // RFC 6962 §2.1.2: PROOF(m, D[n]) for 0 < m <= n (a proof from the empty tree says nothing).
                guard first >= 1, let plan = try? MerkleProofPlan.consistency(first: first, second: second),
                    let proof = try await proofHashes(plan, treeSize: second, store: store, context: context)
                else { return badRequest("need 1 <= first <= second <= the tree size") }
                return proofResponse([
                    JSONMember(key: "first", value: .number(String(first))),
                    JSONMember(key: "second", value: .number(String(second))), hashesMember(proof),
                ])
            } catch let error as ParameterError {
                return badRequest(error.message)
            } catch {
                return unavailable(error, context: context)
            }
        }
    }

    /// The hashes of `plan`'s proof, for a tree of `treeSize` leaves, in one read; nil when the tree is smaller. From
    /// the stored nodes when the first `treeSize` leaves have theirs (docs/audit.md), otherwise (leaves waiting for
    /// the node backfill) from every leaf hash, as proofs were served before nodes were stored.
    private static func proofHashes(
        _ plan: MerkleProofPlan, treeSize: Int64, store: any Store, context: ServerContext
    ) async throws -> [[UInt8]]? {
        let result = try await store.read { reader -> (proof: [[UInt8]], missingNode: Bool)? in
            guard treeSize <= (try reader.auditTree().size) else { return nil }
            let nodesStored = treeSize <= (try reader.auditNodeSize())
            if nodesStored, let proof = plan.hashes(from: try reader.merkleNodes(plan.nodeIDs)) {
                return (proof, false)
            }
            let leaves = try reader.auditLeaves(start: 0, end: treeSize).map(\.leafHash)
            return (MerkleTree.hashes(of: plan, leaves: leaves), nodesStored)
        }
        if result?.missingNode == true {
            context.logger.log(.error, "audit proof: a stored node is missing, served from every leaf instead") {
                $0.add("tree_size", Int(treeSize))
            }
        }
        return result?.proof
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
