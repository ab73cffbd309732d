import Crypto
import Foundation
import TestSupport

/// A small PKI made once per test run with the `openssl` CLI: root → intermediate → leaf, plus an
/// unrelated root and a self-signed leaf.
struct TestChain: Sendable {
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate
    let otherRoot: Certificate
    let selfSignedLeaf: Certificate
    /// A certificate issued by `selfSignedLeaf`, whose basicConstraints say cA = FALSE.
    let issuedByNonCA: Certificate

    /// The AAGUID put in the leaf's id-fido-gen-ce-aaguid extension.
    static let aaguid = Hex.decode("000102030405060708090a0b0c0d0e0f")

    static let shared: TestChain = {
        do {
            return try make()
        } catch {
            fatalError("could not build the test PKI with /usr/bin/openssl: \(error)")
        }
    }()

    private static func make() throws -> TestChain {
        // A scratch directory, removed when `scratch` goes, and the openssl runner of TestSupport.
        let scratch = try OpenSSLCommand()
        let path = scratch.path
        let write = scratch.write
        let openssl = scratch.run
        try write("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n")
        try write(
            "leaf.ext",
            "basicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth,clientAuth\n"
                + "1.3.6.1.4.1.45724.1.1.4=DER:0410\(Hex.encode(aaguid))\n")
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        func selfSigned(_ name: String, _ subject: String, ext: String) throws {
            try openssl(
                ["req", "-x509"] + ec + [
                    "-keyout", path("\(name).key"), "-out", path("\(name).pem"), "-subj", subject, "-days", "3650",
                    "-addext", ext,
                ])
        }
        try selfSigned("root", "/CN=Test Root/O=passkeyd", ext: "basicConstraints=critical,CA:TRUE")
        try selfSigned("other", "/CN=Other Root/O=passkeyd", ext: "basicConstraints=critical,CA:TRUE")
        try selfSigned("selfleaf", "/CN=Self Signed Leaf", ext: "basicConstraints=critical,CA:FALSE")
        func issued(_ name: String, _ subject: String, by issuer: String, days: String, ext: String) throws {
            try openssl(
                ["req", "-new"] + ec + ["-keyout", path("\(name).key"), "-out", path("\(name).csr"), "-subj", subject])
            try openssl([
                "x509", "-req", "-in", path("\(name).csr"), "-CA", path("\(issuer).pem"), "-CAkey",
                path("\(issuer).key"), "-set_serial", "4660", "-days", days, "-extfile", path(ext), "-out",
                path("\(name).pem"),
            ])
        }
        try issued("intermediate", "/CN=Test Intermediate/O=passkeyd", by: "root", days: "1825", ext: "ca.ext")
        try issued(
            "leaf", "/CN=Test Leaf/O=passkeyd/OU=Authenticator Attestation", by: "intermediate", days: "365",
            ext: "leaf.ext")
        try issued("nonca", "/CN=Issued By Non CA", by: "selfleaf", days: "365", ext: "leaf.ext")
        func load(_ name: String) throws -> Certificate { try scratch.certificate("\(name).pem") }
        return TestChain(
            root: try load("root"), intermediate: try load("intermediate"), leaf: try load("leaf"),
            otherRoot: try load("other"), selfSignedLeaf: try load("selfleaf"),
            issuedByNonCA: try load("nonca"))
    }
}
