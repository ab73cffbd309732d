import Crypto
import Foundation
import SoftwareClient

/// The credentials `--signup` creates, one JSON line each (`{"id","user","key"}`, base64url; `key` is the ES256
/// private key as PKCS#8 DER), so later `--login` runs can use them. Test keys only.
enum CredentialFile {
    static func append(_ credentials: [VirtualCredential], to path: String) throws(LoadgenError) {
        var text = ""
        for credential in credentials {
            guard case .es256(let key) = credential.key else { continue }
            text +=
                "{\"id\":\"\(Base64URL.encode(credential.id))\",\"user\":\"\(Base64URL.encode(credential.userHandle))\","
                + "\"key\":\"\(Base64URL.encode(key.pkcs8DERRepresentation))\",\"rp\":\(JSONScan.quoted(credential.rpID))}\n"
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw LoadgenError(.credentials, "cannot create \(path)") }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw LoadgenError(.credentials, "cannot open \(path)")
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw LoadgenError(.credentials, "writing \(path): \(error)")
        }
    }

    static func load(_ path: String) throws(LoadgenError) -> [VirtualCredential] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadgenError(.credentials, "cannot read \(path)")
        }
        var credentials: [VirtualCredential] = []
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            let bytes = Array(line.utf8)
            guard let id = JSONScan.string("id", in: bytes).flatMap({ Base64URL.decode($0) }),
                let user = JSONScan.string("user", in: bytes).flatMap({ Base64URL.decode($0) }),
                let der = JSONScan.string("key", in: bytes).flatMap({ Base64URL.decode($0) }),
                let rp = JSONScan.string("rp", in: bytes),
                let key = try? P256SigningKey(pkcs8DERRepresentation: der)
            else { throw LoadgenError(.credentials, "\(path) line \(number + 1) is not a credential") }
            credentials.append(
                VirtualCredential(id: id, key: .es256(key), rpID: rp, userHandle: user, signCount: 0, counterStep: 0))
        }
        return credentials
    }
}
