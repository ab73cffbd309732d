import Crypto

/// Verifies a registration ceremony (WebAuthn L3 §7.1 "Registering a New Credential"), every step in
/// order. No I/O: step 26 (credential ID not yet registered) and storing the record are the caller's.
public struct RegistrationVerifier: Sendable {
    /// What the RP expects.
    public let expectations: RegistrationExpectations

    /// Creates a verifier for one ceremony.
    public init(expectations: RegistrationExpectations) {
        self.expectations = expectations
    }

    /// Runs §7.1 on `response`.
    /// - Returns: the verified registration, with the attestation trust outcome as a value for `CeremonyPolicy`.
    /// - Throws: `WebAuthnError` naming the step that failed.
    public func verify(_ response: RegistrationResponse) throws(WebAuthnError) -> VerifiedRegistration {
        // §5.1: type "public-key", id = base64url(rawId).
        try CredentialIdentity.verify(type: response.type, id: response.id, rawID: response.rawID)
        // §7.1 steps 5–6: decode and parse clientDataJSON.
        let clientData = try CollectedClientData(bytes: response.clientDataJSON)
        // §7.1 steps 7–10: type, challenge, origin, topOrigin (and L2's tokenBinding).
        try clientData.verify(
            type: CollectedClientData.CeremonyType.create,
            challenge: expectations.challenge,
            originPolicy: expectations.originPolicy)
        // §7.1 step 11: hash = SHA-256(response.clientDataJSON).
        let clientDataHash = Digest.sha256(response.clientDataJSON)
        // §7.1 step 12: CBOR-decode attestationObject into fmt, authData, attStmt.
        let attestationObject = try AttestationObject(bytes: response.attestationObject)
        let authenticatorData = attestationObject.authenticatorData
        // §7.1 step 13: rpIdHash is SHA-256 of the RP ID.
        guard ConstantTime.equals(authenticatorData.rpIDHashBytes, expectations.rpID.hash) else {
            throw WebAuthnError(.rpIDHashMismatch, "rpIdHash is not SHA-256(\"\(expectations.rpID)\")")
        }
        // §7.1 step 14: the UP flag is set.
        guard authenticatorData.flags.userPresent else {
            throw WebAuthnError(.userPresenceRequired, "UP flag not set")
        }
        // §7.1 step 15: UV is set if the RP requires user verification.
        guard authenticatorData.flags.userVerified || !expectations.userVerificationRequired else {
            throw WebAuthnError(.userVerificationRequired, "UV flag not set")
        }
        // §7.1 step 16 (BE clear ⇒ BS clear) is enforced by AuthenticatorData.init.
        // §7.1 step 25 (credentialId ≤ 1023 bytes) is enforced by AttestedCredentialData.
        guard let attested = authenticatorData.attestedCredentialData else {
            throw WebAuthnError(.missingAttestedCredentialData, "AT flag not set in registration authData")
        }
        // §7.1 step 19: the credential's alg is one of options.pubKeyCredParams.
        guard expectations.allowedAlgorithms.contains(attested.credentialPublicKey.algorithm) else {
            throw WebAuthnError(
                .algorithmNotAllowed, "alg \(attested.credentialPublicKey.algorithm.rawValue) was not offered")
        }
        // §7.1 steps 21–22: fmt is a supported format (case-sensitive match), and its verification procedure; a
        // `compound` statement (§8.9) is one verified statement per entry.
        let statements = try expectations.formats.verify(
            format: attestationObject.format,
            AttestationStatementInput(
                statement: attestationObject.statement,
                authenticatorData: authenticatorData,
                clientDataHash: clientDataHash,
                verificationTime: expectations.verificationTime))
        // §7.1 steps 23–24: judge each statement's trust path against the RP's anchors for its format (reported;
        // whether an untrusted one is acceptable is the relying party's CeremonyPolicy).
        let judged = statements.map {
            JudgedAttestationStatement(
                format: $0.format, result: $0.result,
                trust: judgeTrust($0.result, format: $0.format, aaguid: attested.aaguid))
        }
        guard let strongest = JudgedAttestationStatement.strongest(of: judged) else {
            throw WebAuthnError(
                .invalidAttestationStatement, "fmt \"\(attestationObject.format)\" verified no statement")
        }
        // Not a numbered §7.1 step: the credential the client names (`rawId`, §5.1) must be the one the
        // authenticator attested, which the credential record is keyed on, or the client's next assertion names a
        // credential the RP does not know. Judged here, last as the token endpoint always judged it, so that every
        // caller (the endpoint and `passkeyd replay`) refuses it alike.
        guard ConstantTime.equals(attested.credentialID, response.rawID) else {
            throw WebAuthnError(.credentialIDMismatch, "rawId differs from the credentialId in authenticatorData")
        }
        return VerifiedRegistration(
            attested: attested,
            authenticatorData: authenticatorData,
            format: attestationObject.format,
            statements: judged,
            strongest: strongest,
            transports: response.transports)
    }

    /// §7.1 step 24: a trust path is trustworthy when it chains to one of the anchors for its format and its
    /// authenticator model (`AttestationTrustAnchors.roots(for:aaguid:leaf:)`, §7.1 step 23) at the verification
    /// time. None and self attestation have no path and are never "trusted".
    private func judgeTrust(_ attestation: AttestationStatementResult, format: String, aaguid: [UInt8])
        -> AttestationTrustResult
    {
        guard let leaf = attestation.trustPath.first else {
            switch attestation.type {
            case .none: return .noAttestation
            case .`self`: return .selfAttestation
            default: return .untrusted(reason: "attestation type \(attestation.type.rawValue) has no trust path")
            }
        }
        let roots = expectations.trustAnchors.roots(for: format, aaguid: aaguid, leaf: leaf)
        guard !roots.isEmpty else { return .untrusted(reason: "no trust anchors configured for \(format)") }
        do {
            _ = try TrustStore(roots: roots).validate(
                leaf: leaf, intermediates: Array(attestation.trustPath.dropFirst()), at: expectations.verificationTime)
            return .trusted
        } catch {
            return .untrusted(reason: "trust path does not chain to an anchor: \(error)")
        }
    }
}
