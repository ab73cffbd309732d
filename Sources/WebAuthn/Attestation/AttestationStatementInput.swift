import CBOR
import Foundation

/// What an attestation statement format's verification procedure receives (WebAuthn L3 §6.5.2:
/// attStmt, authenticatorData and clientDataHash), plus the instant at which to judge time-bound things.
public struct AttestationStatementInput: Sendable {
    /// The `attStmt` map.
    public let statement: CBORValue
    /// The parsed authenticator data (its `rawBytes` are what statements sign).
    public let authenticatorData: AuthenticatorData
    /// SHA-256 of clientDataJSON.
    public let clientDataHash: [UInt8]
    /// The instant to judge certificate validity at (no clock reads in the pure stack).
    public let verificationTime: Date

    /// Creates an input.
    public init(
        statement: CBORValue, authenticatorData: AuthenticatorData, clientDataHash: [UInt8], verificationTime: Date
    ) {
        self.statement = statement
        self.authenticatorData = authenticatorData
        self.clientDataHash = clientDataHash
        self.verificationTime = verificationTime
    }
}
