import Crypto
import Foundation
import Metadata

/// `metadata`: where the FIDO MDS3 BLOB comes from and what it must chain to, read at load: the roots and CRLs are
/// parsed then (a file that does not read or parse stops the load, naming it), the BLOB itself is read by the
/// server's `MetadataRegistry` at start and whenever it changes.
public struct MetadataSettings: Sendable, Equatable {
    /// `metadata.blob_file`, nil when unset.
    public var blobFile: String?
    /// `metadata.root_certificate_file`, nil for the built-in FIDO MDS root.
    public var rootCertificateFile: String?
    /// The roots the BLOB's signing chain must lead to: the file's, or `BuiltinMetadataRoot.certificates`.
    public var roots: [Certificate]
    /// `metadata.crl_files`.
    public var crlFiles: [String]
    /// The CRLs those files hold, in order.
    public var crls: [CertificateRevocationList]
    /// `metadata.refresh_interval_seconds`.
    public var refreshIntervalSeconds: Int

    /// The defaults: no BLOB file, the built-in root, no CRL, a refresh a minute.
    package init(
        blobFile: String? = nil, rootCertificateFile: String? = nil,
        roots: [Certificate] = BuiltinMetadataRoot.certificates, crlFiles: [String] = [],
        crls: [CertificateRevocationList] = [],
        refreshIntervalSeconds: Int = Settings.Metadata.refreshIntervalSeconds.defaultValue
    ) {
        self.blobFile = blobFile
        self.rootCertificateFile = rootCertificateFile
        self.roots = roots
        self.crlFiles = crlFiles
        self.crls = crls
        self.refreshIntervalSeconds = refreshIntervalSeconds
    }

    /// Reads `metadata`.
    package static func read(_ object: ConfigObject) throws(ConfigurationError) -> Self {
        let blobFile = try object.value(Settings.Metadata.blobFile)
        if let blobFile, blobFile.isEmpty { throw object.error("blob_file", "must not be empty (leave it out)") }
        let rootFile = try object.value(Settings.Metadata.rootCertificateFile)
        var roots = BuiltinMetadataRoot.certificates
        if let rootFile {
            guard let text = try? String(contentsOfFile: rootFile, encoding: .utf8) else {
                throw object.error("root_certificate_file", "cannot read \(rootFile)")
            }
            do {
                roots = try Certificate.certificates(fromPEM: text)
            } catch {
                throw object.error("root_certificate_file", "\(rootFile): \(error.reason)")
            }
            guard !roots.isEmpty else {
                throw object.error("root_certificate_file", "\(rootFile) holds no certificate")
            }
        }
        let crlFiles = try object.value(Settings.Metadata.crlFiles)
        var crls: [CertificateRevocationList] = []
        for (index, file) in crlFiles.enumerated() {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw object.error("crl_files[\(index)]", "cannot read \(file)")
            }
            let bytes = [UInt8](data)
            do {
                if let text = String(bytes: bytes, encoding: .utf8), text.contains("-----BEGIN") {
                    crls.append(try CertificateRevocationList(pem: text))
                } else {
                    crls.append(try CertificateRevocationList(der: bytes))
                }
            } catch {
                throw object.error("crl_files[\(index)]", "\(file) is not a CRL (PEM or DER): \(error.reason)")
            }
        }
        let interval = try object.value(Settings.Metadata.refreshIntervalSeconds)
        try object.rejectUnknownKeys()
        return Self(
            blobFile: blobFile, rootCertificateFile: rootFile, roots: roots, crlFiles: crlFiles, crls: crls,
            refreshIntervalSeconds: interval)
    }
}
