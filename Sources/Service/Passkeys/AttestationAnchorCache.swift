import Crypto
import Metadata
import Synchronization
import WebAuthn

/// The attestation trust anchors every registration is judged with (WebAuthn L3 §7.1 step 23): each metadata
/// statement's `attestationRootCertificates` of the loaded BLOB, by AAGUID and by U2F key identifier, and the
/// operator's `passkeys.attestation_root_files`. Built once per BLOB (recognized by its SHA-256), not per request.
package final class AttestationAnchorCache: Sendable {
    /// `passkeys.attestation_root_files`.
    private let extra: [Certificate]
    /// The anchors of the last BLOB asked for, and its hash.
    private let built = Mutex<(sha256: [UInt8], anchors: AttestationTrustAnchors)?>(nil)

    /// A cache whose anchors always hold `extra`.
    package init(extra: [Certificate]) {
        self.extra = extra
    }

    /// The anchors of `blob` (`nil`: no BLOB is loaded, the operator's roots alone).
    package func anchors(for blob: MetadataBLOB?) -> AttestationTrustAnchors {
        guard let blob else { return AttestationTrustAnchors(extra: extra) }
        if let cached = built.withLock({ $0 }), cached.sha256 == blob.sha256 { return cached.anchors }
        let anchors = Self.anchors(of: blob, extra: extra)
        built.withLock { $0 = (blob.sha256, anchors) }
        return anchors
    }

    /// Every entry's statement roots under its AAGUID (never the all-zero one) and its key identifiers, and `extra`.
    static func anchors(of blob: MetadataBLOB, extra: [Certificate]) -> AttestationTrustAnchors {
        var byAAGUID: [[UInt8]: [Certificate]] = [:]
        var byKeyIdentifier: [String: [Certificate]] = [:]
        for entry in blob.entries {
            guard let roots = entry.statement?.attestationRootCertificates, !roots.isEmpty else { continue }
            if let aaguid = entry.aaguid, aaguid.contains(where: { $0 != 0 }) { byAAGUID[aaguid, default: []] += roots }
            for identifier in entry.attestationCertificateKeyIdentifiers {
                byKeyIdentifier[identifier.lowercased(), default: []] += roots
            }
        }
        return AttestationTrustAnchors(byAAGUID: byAAGUID, byKeyIdentifier: byKeyIdentifier, extra: extra)
    }
}
