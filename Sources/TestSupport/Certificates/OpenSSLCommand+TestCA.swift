import Crypto

extension OpenSSLCommand {
    /// A test CA in this scratch directory: a self-signed root (`root.key`, `root.pem`) and an intermediate it signs
    /// (`intermediate.key`, `intermediate.pem`), both EC keys on `curve`, for the attestation authorities' chains.
    func makeRootAndIntermediate(curve: String, rootSubject: String, intermediateSubject: String) throws -> (
        root: Certificate, intermediate: Certificate
    ) {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-nodes"]
        try run(
            ["req", "-x509"] + ec + [
                "-keyout", path("root.key"), "-out", path("root.pem"), "-subj", rootSubject, "-days", "3650",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign",
            ])
        try write("ca.ext", "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign\n")
        try run(
            ["req", "-new"] + ec + [
                "-keyout", path("intermediate.key"), "-out", path("intermediate.csr"), "-subj", intermediateSubject,
            ])
        try run([
            "x509", "-req", "-in", path("intermediate.csr"), "-CA", path("root.pem"), "-CAkey", path("root.key"),
            "-set_serial", "2", "-days", "3000", "-extfile", path("ca.ext"), "-out", path("intermediate.pem"),
        ])
        return (try certificate("root.pem"), try certificate("intermediate.pem"))
    }
}
