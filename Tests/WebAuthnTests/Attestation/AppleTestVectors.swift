import Foundation

/// Self-made `apple` material (one P-256 key in every certificate). Generated once with Python `cryptography`.
enum AppleTestVectors {
    /// The clientDataHash the nonces were computed with.
    static let clientDataHash = bytes(
        """
        a/vnr6u7e2jOSmwHE7CAkLbyt4zb7KDCSloT/Gm4Gu0=
        """)

    /// Authenticator data whose credential key is NOT the certificates' key.
    static let appleOtherAuthData = bytes(
        """
        o3mm9u6vuaVeN4wRgDTidR5oL6ufLTCrE9ISVYbOGUdFAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAECAwQFBgcICQoLDA0ODxClAQID
        JiABIVggx0Ws+1Au2p2LC1WtpqUVx8OEjy8W2Mlnqd5HoxAurCQiWCC3qkXBJR53iSB+nKML13R6ZoEI1ubXSN/PPoiDobndJQ==
        """)

    /// Nonce extension = SHA-256(appleOtherAuthData || clientDataHash), well formed.
    static let appleOtherNonce = bytes(
        """
        MIIBgjCCASigAwIBAgIUPy5wUA0YQLJA0lPUiFjCbEYMcj4wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHjEcMBoGA1UEAwwTcGFzc2tleWQgYXBwbGUgdGVzdDBZMBMGByqG
        SM49AgEGCCqGSM49AwEHA0IABLBbhp8x5Nt/Utv9nf0GPdICSR80Qbp6CSjrvcWQe8RI2P0Q7mRaxoIgAlhYUMuOw+DuA+fnoaxB
        7YZXlHrm18qjRTBDMAwGA1UdEwEB/wQCMAAwMwYJKoZIhvdjZAgCBCYwJKEiBCDFETZLaAeJx/EFEXkCOWSxu76nkeQ8JD6Q2Ldo
        HGP1wTAKBggqhkjOPQQDAgNIADBFAiBxu2IOhHD0b36ytUFysRvosbiBrOGezKGuY9SiEMJBlQIhAKYiWIYvDdR8DOInCKa8t/B0
        OGcd1Xy3FbrgH1rutSDC
        """)

    /// No 1.2.840.113635.100.8.2 extension.
    static let appleNoNonce = bytes(
        """
        MIIBSzCB86ADAgECAhQVUbhKKc7WBQBcnbLUM54/r058HTAKBggqhkjOPQQDAjAbMRkwFwYDVQQDDBBwYXNza2V5ZCB0ZXN0IENB
        MCAXDTIwMDEwMTAwMDAwMFoYDzIwNTAwMTAxMDAwMDAwWjAeMRwwGgYDVQQDDBNwYXNza2V5ZCBhcHBsZSB0ZXN0MFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAEsFuGnzHk239S2/2d/QY90gJJHzRBunoJKOu9xZB7xEjY/RDuZFrGgiACWFhQy47D4O4D5+ehrEHt
        hleUeubXyqMQMA4wDAYDVR0TAQH/BAIwADAKBggqhkjOPQQDAgNHADBEAiBV07zvRtwr4KFpHBrBLjAu4SqM5nEsENEBzhCG6/oe
        QQIgfBtYrJlO2uKEozzI7lougLDocA6bu2uhBtba3htj7ww=
        """)

    /// The extension holds a bare OCTET STRING instead of SEQUENCE { [1] … }.
    static let appleMalformedNonce = bytes(
        """
        MIIBfzCCASSgAwIBAgIUfBfQqpZnTdtABJBAoMygoOARtY8wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHjEcMBoGA1UEAwwTcGFzc2tleWQgYXBwbGUgdGVzdDBZMBMGByqG
        SM49AgEGCCqGSM49AwEHA0IABLBbhp8x5Nt/Utv9nf0GPdICSR80Qbp6CSjrvcWQe8RI2P0Q7mRaxoIgAlhYUMuOw+DuA+fnoaxB
        7YZXlHrm18qjQTA/MAwGA1UdEwEB/wQCMAAwLwYJKoZIhvdjZAgCBCIEIMURNktoB4nH8QUReQI5ZLG7vqeR5DwkPpDYt2gcY/XB
        MAoGCCqGSM49BAMCA0kAMEYCIQDaPW/k6ey9viMGu0kcNdScnu2iAIpnoxmLoq2HbY8UoAIhANWM9eLM/vUdhB1l3HrGvHG7RUJ9
        wu5vZ2sEAJLW+Lec
        """)

    private static func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data())
    }
}
