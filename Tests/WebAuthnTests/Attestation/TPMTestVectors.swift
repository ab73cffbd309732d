import Foundation

/// Self-made certificates for the `tpm` checks that a recorded ceremony cannot reach: every one is
/// signed by `tpmAIKKey` (P-256), so a test re-signs a certInfo it builds with that key. Generated once with
/// Python `cryptography` (and `openssl x509 -req` for the version-1 certificate); validity 2020–2050.
enum TPMTestVectors {
    /// PKCS#8 DER of the AIK signing key (P-256).
    static let tpmAIKKey = bytes(
        """
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7+X5rvy4GH+tohe8yDA9OvZhur169TMnaI/R2CAQMuahRANCAASp
        QFcqTO5nOLDcTp6yIJpPes380ryJzbZMzA2Xam3unTkiIsteToghcoeK34LjBevD4itiOaqxEv904Qyumvhg
        """)

    /// V3, empty subject, critical SAN dirName {manufacturer id:FFFFF1D0, model passkeyd-test,
    /// version id:00000001}, EKU 2.23.133.8.3, CA false, AAGUID 08987058-cadc-4b81-b6e1-30de50dcbe96.
    static let tpmValid = bytes(
        """
        MIIBvjCCAWSgAwIBAgIUXVOCH1SHUGjs+DrdCjZEPysgOhowCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjgZ4wgZswVgYDVR0RAQH/BEwwSqRI
        MEYxRDAUBgVngQUCAQwLaWQ6RkZGRkYxRDAwFAYFZ4EFAgMMC2lkOjAwMDAwMDAxMBYGBWeBBQICDA1wYXNza2V5ZC10ZXN0MBAG
        A1UdJQQJMAcGBWeBBQgDMAwGA1UdEwEB/wQCMAAwIQYLKwYBBAGC5RwBAQQEEgQQCJhwWMrcS4G24TDeUNy+ljAKBggqhkjOPQQD
        AgNIADBFAiEA6AQoDPRinZLEH5IibY68VkWUhWYM0iLrRkNObKAHZHUCIGuwX13IZbqYmIPGE5va2Qus1pG5qjJyb8wK6BysQ8hf
        """)

    /// As tpmValid without the id-fido-gen-ce-aaguid extension.
    static let tpmNoAAGUID = bytes(
        """
        MIIBmTCCAT+gAwIBAgIUZdmCEQ/r1pus++oqAxmnu7g2nqswCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjejB4MFYGA1UdEQEB/wRMMEqkSDBG
        MUQwFAYFZ4EFAgEMC2lkOkZGRkZGMUQwMBQGBWeBBQIDDAtpZDowMDAwMDAwMTAWBgVngQUCAgwNcGFzc2tleWQtdGVzdDAQBgNV
        HSUECTAHBgVngQUIAzAMBgNVHRMBAf8EAjAAMAoGCCqGSM49BAMCA0gAMEUCIAlDjnEIkfqbSwpYQw1SxB/jBqMavmavVIP5Ulsz
        nM4GAiEAg/MNIA0lGErSgxEm0R7YyYwAr6n3nc04Fel+DBNdfGY=
        """)

    /// A version 1 certificate (no extensions) with subject CN=v1.
    static let tpmVersion1 = bytes(
        """
        MIIBFjCBvQIUZoera2N3/xnqFByKwCzxPGtlcP8wCgYIKoZIzj0EAwIwDTELMAkGA1UEAwwCdjEwIBcNMjYxMTI5MTczMjQyWhgP
        MjA1MTA3MjExNzMyNDJaMA0xCzAJBgNVBAMMAnYxMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqUBXKkzuZziw3E6esiCaT3rN
        /NK8ic22TMwNl2pt7p05IiLLXk6IIXKHit+C4wXrw+IrYjmqsRL/dOEMrpr4YDAKBggqhkjOPQQDAgNIADBFAiEAmAn9dg7sQzR1
        XHL3xJx7bkSIaeOyxZptfH/XKOcZqIECIFG6bDniK6T1N+tYZGJoR4hgNiPMLifIVwf87JkvPVCC
        """)

    /// As tpmValid with subject CN=AIK.
    static let tpmSubject = bytes(
        """
        MIIBzTCCAXKgAwIBAgIUYBiOwBKq8PNCiRpt3JyY6L53i08wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowDjEMMAoGA1UEAwwDQUlLMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD
        QgAEqUBXKkzuZziw3E6esiCaT3rN/NK8ic22TMwNl2pt7p05IiLLXk6IIXKHit+C4wXrw+IrYjmqsRL/dOEMrpr4YKOBnjCBmzBW
        BgNVHREBAf8ETDBKpEgwRjFEMBQGBWeBBQIBDAtpZDpGRkZGRjFEMDAUBgVngQUCAwwLaWQ6MDAwMDAwMDEwFgYFZ4EFAgIMDXBh
        c3NrZXlkLXRlc3QwEAYDVR0lBAkwBwYFZ4EFCAMwDAYDVR0TAQH/BAIwADAhBgsrBgEEAYLlHAEBBAQSBBAImHBYytxLgbbhMN5Q
        3L6WMAoGCCqGSM49BAMCA0kAMEYCIQD9ICMoDjHcugfDE7B90HDWDy1qeUQ0TEi6wq34/83aOgIhAP6MCgL1TltYY/MNG2pTeNJu
        dPD/tdP3xMKyyXDokxUC
        """)

    /// As tpmValid without subjectAltName.
    static let tpmNoSAN = bytes(
        """
        MIIBYzCCAQqgAwIBAgIUANA0+uoAVwwcVh88zbk2QoZfHuwwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjRTBDMBAGA1UdJQQJMAcGBWeBBQgD
        MAwGA1UdEwEB/wQCMAAwIQYLKwYBBAGC5RwBAQQEEgQQCJhwWMrcS4G24TDeUNy+ljAKBggqhkjOPQQDAgNHADBEAiA1MjULoof2
        f7h5q2Oxv9CmG6LjXdO8u2DKUxlMKSgHSAIgbrhMgglS2MHDCwljLZ4BRhiHnuDnXwfKXflUK/TJeMk=
        """)

    /// As tpmValid with a non-critical subjectAltName.
    static let tpmSANNotCritical = bytes(
        """
        MIIBujCCAWGgAwIBAgIUYlEUhl/9yTTzqyUaBeTnStEfuDUwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjgZswgZgwUwYDVR0RBEwwSqRIMEYx
        RDAUBgVngQUCAQwLaWQ6RkZGRkYxRDAwFAYFZ4EFAgMMC2lkOjAwMDAwMDAxMBYGBWeBBQICDA1wYXNza2V5ZC10ZXN0MBAGA1Ud
        JQQJMAcGBWeBBQgDMAwGA1UdEwEB/wQCMAAwIQYLKwYBBAGC5RwBAQQEEgQQCJhwWMrcS4G24TDeUNy+ljAKBggqhkjOPQQDAgNH
        ADBEAiAH3DYtMPonGDRBlpGg6otik5IM7rfx5GSumL5sS9EcqQIgF2AMUkH1QvlB8csbk/G36ox8mIwFkSec2RDWRI6nGuk=
        """)

    /// As tpmValid with no tcg-at-tpmModel in the SAN.
    static let tpmSANNoModel = bytes(
        """
        MIIBpjCCAUygAwIBAgIUZS1DkdTZROop1MxdMlyl4KYSm2gwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjgYYwgYMwPgYDVR0RAQH/BDQwMqQw
        MC4xLDAUBgVngQUCAQwLaWQ6RkZGRkYxRDAwFAYFZ4EFAgMMC2lkOjAwMDAwMDAxMBAGA1UdJQQJMAcGBWeBBQgDMAwGA1UdEwEB
        /wQCMAAwIQYLKwYBBAGC5RwBAQQEEgQQCJhwWMrcS4G24TDeUNy+ljAKBggqhkjOPQQDAgNIADBFAiEA0zKev0nN8kyjrT0grn7J
        h9dC7MPJ4l0TdzESdLm5dTQCIF8zLCGAyX3+N4gzusqPOQZxDsMwAZxW6Yq1vUYIGxrO
        """)

    /// As tpmValid with EKU serverAuth only.
    static let tpmNoAIKUsage = bytes(
        """
        MIIBwTCCAWegAwIBAgIUQMb2lsXqLLzrMcoDg95xoh33sp0wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjgaEwgZ4wVgYDVR0RAQH/BEwwSqRI
        MEYxRDAUBgVngQUCAQwLaWQ6RkZGRkYxRDAwFAYFZ4EFAgMMC2lkOjAwMDAwMDAxMBYGBWeBBQICDA1wYXNza2V5ZC10ZXN0MBMG
        A1UdJQQMMAoGCCsGAQUFBwMBMAwGA1UdEwEB/wQCMAAwIQYLKwYBBAGC5RwBAQQEEgQQCJhwWMrcS4G24TDeUNy+ljAKBggqhkjO
        PQQDAgNIADBFAiBdzFtYR/WMdbS/cVlPtN9w5RMmzRkiO0hnthBqfTtGVwIhANQUkh1eI/d5iqhQb/MKubgeFQtrsYjwXwHdOFJ7
        KvbD
        """)

    /// As tpmValid with basicConstraints CA true.
    static let tpmCA = bytes(
        """
        MIIBwDCCAWegAwIBAgIUB1hzWsjCC+Z3plvOI2moDqGmMycwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjgaEwgZ4wVgYDVR0RAQH/BEwwSqRI
        MEYxRDAUBgVngQUCAQwLaWQ6RkZGRkYxRDAwFAYFZ4EFAgMMC2lkOjAwMDAwMDAxMBYGBWeBBQICDA1wYXNza2V5ZC10ZXN0MBAG
        A1UdJQQJMAcGBWeBBQgDMA8GA1UdEwEB/wQFMAMBAf8wIQYLKwYBBAGC5RwBAQQEEgQQCJhwWMrcS4G24TDeUNy+ljAKBggqhkjO
        PQQDAgNHADBEAiAXwG+7nEe3tLk1ozPP0ceWxo3lNYqDztPD9C8OMuOgPAIgJ1rt0wHJfpNxbHT2dwgKxUmQ/dHIY8TAiturH9D4
        Ayk=
        """)

    /// As tpmValid without basicConstraints.
    static let tpmNoBasicConstraints = bytes(
        """
        MIIBsDCCAVagAwIBAgIURxcjm27UVpVbutCB2Jt93m9ljowwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjgZAwgY0wVgYDVR0RAQH/BEwwSqRI
        MEYxRDAUBgVngQUCAQwLaWQ6RkZGRkYxRDAwFAYFZ4EFAgMMC2lkOjAwMDAwMDAxMBYGBWeBBQICDA1wYXNza2V5ZC10ZXN0MBAG
        A1UdJQQJMAcGBWeBBQgDMCEGCysGAQQBguUcAQEEBBIEEAiYcFjK3EuBtuEw3lDcvpYwCgYIKoZIzj0EAwIDSAAwRQIgKjVhsJjc
        DWxwSkK4RUsC5hl2ghzlUqhq7l2IAfmHoCkCIQD7c9UnFrnvF8t+XQ+iW3pMsGIrEd76UrVjJgqKe0CXcg==
        """)

    /// As tpmValid with an all-zero AAGUID extension.
    static let tpmAAGUIDMismatch = bytes(
        """
        MIIBvjCCAWSgAwIBAgIUFZP4HtbFdxrysCq/8am6faGnT+owCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowADBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKlAVypM7mc4sNxO
        nrIgmk96zfzSvInNtkzMDZdqbe6dOSIiy15OiCFyh4rfguMF68PiK2I5qrES/3ThDK6a+GCjgZ4wgZswVgYDVR0RAQH/BEwwSqRI
        MEYxRDAUBgVngQUCAQwLaWQ6RkZGRkYxRDAwFAYFZ4EFAgMMC2lkOjAwMDAwMDAxMBYGBWeBBQICDA1wYXNza2V5ZC10ZXN0MBAG
        A1UdJQQJMAcGBWeBBQgDMAwGA1UdEwEB/wQCMAAwIQYLKwYBBAGC5RwBAQQEEgQQAAAAAAAAAAAAAAAAAAAAADAKBggqhkjOPQQD
        AgNIADBFAiBcWo8mBR5Damc8+Qk5w+U6nR1XSbZ3bNWBb0Zk6q1AKgIhANfPZidRWo85ILpZK9mimf3dWofTH8r2DcqJNhGZDU4Z
        """)

    private static func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data())
    }
}
