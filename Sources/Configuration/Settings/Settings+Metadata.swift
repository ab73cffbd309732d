extension Settings {
    /// `metadata`: the FIDO Metadata Service (MDS3) BLOB, verified offline (issue 39; docs/authenticator-policy.md).
    package enum Metadata {
        package static let blobFile = OptionalTextSetting(
            "metadata.blob_file",
            doc: """
                a FIDO MDS3 BLOB file (the JWS as downloaded from the FIDO Alliance, fetched by your own means: \
                passkeyd never goes to the network) verified at start and re-read every \
                `metadata.refresh_interval_seconds` when it changed; a BLOB that does not verify, or is older than \
                the one loaded, is refused with an error in the log and the last good one is kept. Unset: only \
                `passkeyd metadata load` loads one
                """)
        package static let rootCertificateFile = OptionalTextSetting(
            "metadata.root_certificate_file", absent: "the built-in FIDO MDS root",
            doc: """
                a PEM file of the roots the BLOB's `x5c` signing chain must lead to (FIDO MDS3 §3.2); by default the \
                FIDO Alliance's MDS root (GlobalSign Root CA - R3), built into the binary
                """)
        package static let crlFiles = ListSetting(
            "metadata.crl_files",
            doc: """
                CRL files (PEM or DER) that the BLOB's signing chain is checked against; when given, every CA of the \
                chain needs its CRL among them. Empty: no revocation check
                """)
        package static let refreshIntervalSeconds = IntegerSetting(
            "metadata.refresh_interval_seconds", default: 60, range: 5...86_400,
            doc: """
                how often a server re-reads `metadata.blob_file` (when it changed) and picks up a BLOB another node or \
                `passkeyd metadata load` stored
                """)

        static let all = [
            blobFile.descriptor, rootCertificateFile.descriptor, crlFiles.descriptor,
            refreshIntervalSeconds.descriptor,
        ]
    }
}
