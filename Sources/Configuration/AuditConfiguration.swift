import Foundation

/// The `audit` section: how the probative audit log signs its checkpoints and how often it works (docs/audit.md).
public struct AuditConfiguration: Sendable, Equatable {
    /// Who signs the checkpoints.
    public enum Signer: Sendable, Equatable {
        /// No signer: entries are still appended and the tree kept, but no checkpoint is signed (the default, so that
        /// a software key is never chosen silently).
        case none
        /// An Ed25519 key in a file (generated in the data directory, mode 0600, on first start): not HSM-backed.
        case file(path: String)
        /// An Ed25519 key in an HSM through PKCS#11; the PIN comes from a file or an environment variable.
        case pkcs11(PKCS11)
    }

    /// Where the HSM key is and where its PIN comes from (never from the JSON file).
    public typealias PKCS11 = PKCS11Settings

    /// How `audit.signer` names the signer.
    package enum SignerKind: String, SettingChoice {
        case none, file, pkcs11
    }

    public var signer: Signer
    /// The checkpoints' origin line and the key name (signed-note: no space, no plus sign).
    public var origin: String
    /// Checkpoints are signed at most this often, and only when the tree grew.
    public var checkpointIntervalMilliseconds: Int
    /// How often the sequencer moves queued events into the log.
    public var sequenceIntervalMilliseconds: Int
    /// This node's id in the entries it records.
    public var nodeID: String
    /// How long security events stay in the `security_events` table (a user's history, the device-key checks that
    /// read it), in days; the audit log keeps every one regardless. 0: forever (the default).
    public var eventRetentionDays: Int = Settings.Audit.eventRetentionDays.defaultValue
    /// What the log's entries keep of the client's address (`client_address`: `full`, `network` or `none`). Every
    /// node must have the same: whichever sequences writes the entries.
    public var clientAddress: ClientAddressRecording = Settings.Audit.clientAddress.defaultValue

    /// Takes the PIN `pin_env` names from `environment`, for the PKCS#11 signer (`PKCS11Settings.readPIN`).
    package mutating func readPIN(from environment: [String: String]) {
        guard case .pkcs11(var settings) = signer else { return }
        settings.readPIN(from: environment)
        signer = .pkcs11(settings)
    }

    /// Reads `audit` (`rpID` and `dataDirectory` give the defaults of `origin` and `key_file`).
    package static func read(_ object: ConfigObject, rpID: String, dataDirectory: String) throws(ConfigurationError)
        -> AuditConfiguration
    {
        let origin = try object.value(Settings.Audit.origin) ?? "\(rpID)/passkeyd-audit"
        guard !origin.isEmpty, !origin.contains("+"), !origin.unicodeScalars.contains(where: \.properties.isWhitespace)
        else { throw object.error("origin", "must be non-empty, without spaces or \"+\" (a signed-note key name)") }
        let clientAddress = try object.value(Settings.Audit.clientAddress)
        let signerKind = try object.value(Settings.Audit.signer)
        let keyFile = try object.value(Settings.Audit.keyFile)
        let pkcs11Object = try object.object("pkcs11")
        let signer: Signer
        switch signerKind {
        case .none:
            signer = .none
        case .file:
            signer = .file(
                path: keyFile.hasPrefix("/") ? keyFile : (dataDirectory as NSString).appendingPathComponent(keyFile))
        case .pkcs11:
            signer = .pkcs11(
                try PKCS11Settings.read(
                    pkcs11Object ?? object.child([:], path: "audit.pkcs11"), Settings.Audit.pkcs11))
        }
        if signerKind != .pkcs11, let pkcs11Object { try pkcs11Object.rejectUnknownKeys() }
        let configuration = AuditConfiguration(
            signer: signer, origin: origin,
            checkpointIntervalMilliseconds: try object.value(Settings.Audit.checkpointIntervalMilliseconds),
            sequenceIntervalMilliseconds: try object.value(Settings.Audit.sequenceIntervalMilliseconds),
            nodeID: try object.value(Settings.Audit.nodeID) ?? ProcessInfo.processInfo.hostName,
            eventRetentionDays: try object.value(Settings.Audit.eventRetentionDays),
            clientAddress: clientAddress)
        try object.rejectUnknownKeys()
        return configuration
    }
}
