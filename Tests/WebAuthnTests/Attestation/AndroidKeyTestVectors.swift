import Foundation

/// Self-made `android-key` material: the certificates hold key `androidKey` (P-256) and a hand-built
/// KeyDescription (attestationVersion 300, challenge = `clientDataHash`). Generated once with Python `cryptography`.
enum AndroidKeyTestVectors {
    /// PKCS#8 DER of the certified key (P-256).
    static let androidKey = bytes(
        """
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgzDX0Zc4DW+usTzynMYMT+YTcIndtZ9w+k1FkyZOZAOqhRANCAATU
        cY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsqgDnxxC7+gG+0
        """)

    /// The clientDataHash the KeyDescriptions carry as attestationChallenge.
    static let clientDataHash = bytes(
        """
        a/vnr6u7e2jOSmwHE7CAkLbyt4zb7KDCSloT/Gm4Gu0=
        """)

    /// Authenticator data (rpId example.com, UP|UV|AT) whose credential key is androidKey.
    static let androidAuthData = bytes(
        """
        o3mm9u6vuaVeN4wRgDTidR5oL6ufLTCrE9ISVYbOGUdFAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAECAwQFBgcICQoLDA0ODxClAQID
        JiABIVgg1HGNaim1V+u5Xv1M6fv+fzg/zj+piSirCtDnPIDPBlMiWCDk7/14ZSlK01BYNw+DrlXDFdjBjbhrKoA58cQu/oBvtA==
        """)

    /// The same with another credential key.
    static let androidOtherAuthData = bytes(
        """
        o3mm9u6vuaVeN4wRgDTidR5oL6ufLTCrE9ISVYbOGUdFAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAECAwQFBgcICQoLDA0ODxClAQID
        JiABIVgg9bBidNUpj9qf4c+YIAVAjYF7JbxpfxEFotBgxRD7XZwiWCCiCBM2C2xA6+UFWjmSP9ADeUMtKJJpaxw3uwUVZ5Cvjg==
        """)

    /// TeeEnforced {purpose {SIGN}, origin GENERATED}, softwareEnforced {}.
    static let androidValid = bytes(
        """
        MIIBrzCCAVagAwIBAgIUCl4FnySLZ+fhTXLIF+1+nHkP8r0wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHzEdMBsGA1UEAwwUQW5kcm9pZCBLZXlzdG9yZSBLZXkwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAATUcY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsq
        gDnxxC7+gG+0o3IwcDAOBgNVHQ8BAf8EBAMCB4AwXgYKKwYBBAHWeQIBEQRQME4CAgEsCgEBAgIBLAoBAQQga/vnr6u7e2jOSmwH
        E7CAkLbyt4zb7KDCSloT/Gm4Gu0EADAFogMCAQMwE6EFMQMCAQKiAwIBA7+FPgMCAQAwCgYIKoZIzj0EAwIDRwAwRAIgEPXMMM1r
        lckHPArWK72caxzkrfQ8EyQoq++kzlnX24oCICXtAoEYzP33yv1shNXnv5qYj1x9jssEaOvywnvykBZA
        """)

    /// As androidValid with allApplications in teeEnforced.
    static let androidAllApplicationsTEE = bytes(
        """
        MIIBtjCCAVygAwIBAgIUBLomvKVNHzhcNXtJHDADYnilbwMwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHzEdMBsGA1UEAwwUQW5kcm9pZCBLZXlzdG9yZSBLZXkwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAATUcY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsq
        gDnxxC7+gG+0o3gwdjAOBgNVHQ8BAf8EBAMCB4AwZAYKKwYBBAHWeQIBEQRWMFQCAgEsCgEBAgIBLAoBAQQga/vnr6u7e2jOSmwH
        E7CAkLbyt4zb7KDCSloT/Gm4Gu0EADAFogMCAQMwGaEFMQMCAQKiAwIBA7+EWAIFAL+FPgMCAQAwCgYIKoZIzj0EAwIDSAAwRQIh
        AJZ/B7+/Pslte4HsPGByPbNusA7vvX1GJ4OYkw5fOVmtAiBwwijRma3Rb88enJM/a/xU+zVmw00e3CEVNcpEhE2RJA==
        """)

    /// As androidValid with allApplications in softwareEnforced.
    static let androidAllApplicationsSoftware = bytes(
        """
        MIIBtjCCAVygAwIBAgIUMwORUtJKNXSF/sGV7iIPTQKj9A0wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHzEdMBsGA1UEAwwUQW5kcm9pZCBLZXlzdG9yZSBLZXkwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAATUcY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsq
        gDnxxC7+gG+0o3gwdjAOBgNVHQ8BAf8EBAMCB4AwZAYKKwYBBAHWeQIBEQRWMFQCAgEsCgEBAgIBLAoBAQQga/vnr6u7e2jOSmwH
        E7CAkLbyt4zb7KDCSloT/Gm4Gu0EADALogMCAQO/hFgCBQAwE6EFMQMCAQKiAwIBA7+FPgMCAQAwCgYIKoZIzj0EAwIDSAAwRQIg
        aCcJ8/K/g8ZStDH24SkTLCw9vKM2IMCJrXidJmGdNN8CIQCGHEcT8CNtk18ispnwLFiBkyA8vM0tnr6QJe1N/Ur/ag==
        """)

    /// TeeEnforced origin IMPORTED (2).
    static let androidOriginImported = bytes(
        """
        MIIBrzCCAVagAwIBAgIUaIwCn7Q/Hh5jk0jWWgw+qUoKxqwwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHzEdMBsGA1UEAwwUQW5kcm9pZCBLZXlzdG9yZSBLZXkwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAATUcY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsq
        gDnxxC7+gG+0o3IwcDAOBgNVHQ8BAf8EBAMCB4AwXgYKKwYBBAHWeQIBEQRQME4CAgEsCgEBAgIBLAoBAQQga/vnr6u7e2jOSmwH
        E7CAkLbyt4zb7KDCSloT/Gm4Gu0EADAFogMCAQMwE6EFMQMCAQKiAwIBA7+FPgMCAQIwCgYIKoZIzj0EAwIDRwAwRAIgfK7eYPcw
        4p7/2l6lnHlU0lM74atFT7nloMgXW7biBGACICV77hIF/lZ+DzQcl8Yxg4vDd+ATwsC3lvNppTCbrjjw
        """)

    /// TeeEnforced purpose {ENCRYPT, DECRYPT}.
    static let androidPurposeEncrypt = bytes(
        """
        MIIBsjCCAVmgAwIBAgIUGFmEceCzpiD0rTRizHrDDNf41dEwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHzEdMBsGA1UEAwwUQW5kcm9pZCBLZXlzdG9yZSBLZXkwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAATUcY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsq
        gDnxxC7+gG+0o3UwczAOBgNVHQ8BAf8EBAMCB4AwYQYKKwYBBAHWeQIBEQRTMFECAgEsCgEBAgIBLAoBAQQga/vnr6u7e2jOSmwH
        E7CAkLbyt4zb7KDCSloT/Gm4Gu0EADAFogMCAQMwFqEIMQYCAQACAQGiAwIBA7+FPgMCAQAwCgYIKoZIzj0EAwIDRwAwRAIgO5yo
        lceYCGdYDtvJVmFILw5dneyy9Y7Tkw1ka5iZU7oCIEgr7m4jyfHxUTRduA15SAqaXYxEBOUxSLSDbJ0jzZuN
        """)

    /// Purpose SIGN and origin GENERATED in softwareEnforced only.
    static let androidSoftwareOnly = bytes(
        """
        MIIBsTCCAVagAwIBAgIUY1k6yiDUAtASUipnlK2J7UDTp+UwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHzEdMBsGA1UEAwwUQW5kcm9pZCBLZXlzdG9yZSBLZXkwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAATUcY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsq
        gDnxxC7+gG+0o3IwcDAOBgNVHQ8BAf8EBAMCB4AwXgYKKwYBBAHWeQIBEQRQME4CAgEsCgEBAgIBLAoBAQQga/vnr6u7e2jOSmwH
        E7CAkLbyt4zb7KDCSloT/Gm4Gu0EADAToQUxAwIBAqIDAgEDv4U+AwIBADAFogMCAQMwCgYIKoZIzj0EAwIDSQAwRgIhAOJuyMpU
        dAFszMKIFdbvjSmKIa5sPKGUmybTmsC6k3JpAiEA6wRmMN51nRA0IAqCo8gooFCNc7s4MyxlJ8+Z3MDvvNg=
        """)

    /// No key description extension.
    static let androidNoKeyDescription = bytes(
        """
        MIIBUDCB9qADAgECAhQ4eNLC5roI/oD1X0xSdAZhMC4DpDAKBggqhkjOPQQDAjAbMRkwFwYDVQQDDBBwYXNza2V5ZCB0ZXN0IENB
        MCAXDTIwMDEwMTAwMDAwMFoYDzIwNTAwMTAxMDAwMDAwWjAfMR0wGwYDVQQDDBRBbmRyb2lkIEtleXN0b3JlIEtleTBZMBMGByqG
        SM49AgEGCCqGSM49AwEHA0IABNRxjWoptVfruV79TOn7/n84P84/qYkoqwrQ5zyAzwZT5O/9eGUpStNQWDcPg65VwxXYwY24ayqA
        OfHELv6Ab7SjEjAQMA4GA1UdDwEB/wQEAwIHgDAKBggqhkjOPQQDAgNJADBGAiEAxlBMOAAYJz1kUKbR4lgowZLdxoy8HxVGjJjp
        tkbV4ZwCIQD8nytV9gchNaS9p5wb36XObvSl5tMpd3hafyUYgGuEpA==
        """)

    /// A key description extension holding INTEGER 5.
    static let androidMalformedKeyDescription = bytes(
        """
        MIIBYzCCAQmgAwIBAgIUbpOdwdaoohZejtHSHyG3p3KsPq0wCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHzEdMBsGA1UEAwwUQW5kcm9pZCBLZXlzdG9yZSBLZXkwWTATBgcq
        hkjOPQIBBggqhkjOPQMBBwNCAATUcY1qKbVX67le/Uzp+/5/OD/OP6mJKKsK0Oc8gM8GU+Tv/XhlKUrTUFg3D4OuVcMV2MGNuGsq
        gDnxxC7+gG+0oyUwIzAOBgNVHQ8BAf8EBAMCB4AwEQYKKwYBBAHWeQIBEQQDAgEFMAoGCCqGSM49BAMCA0gAMEUCIQDPQeskyxgV
        vPYTVUMgQVudnipUVTysL449M+3ZP3u5NQIgY/uBFzx7/smY82grOvqOzdW+8yrzW5cmxMOlM+u8Dh8=
        """)

    private static func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data())
    }
}
