import Foundation

/// Self-made SafetyNet signing certificates, both holding key `safetyNetKey` (P-256), for JWS built
/// and ES256-signed in the tests. Generated once with Python `cryptography`.
enum AndroidSafetyNetTestVectors {
    /// PKCS#8 DER of the signing key (P-256).
    static let safetyNetKey = bytes(
        """
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgku+FQqA71U61ItKeavwYA9jOt3rjJ1FnsepUxqveXaehRANCAARk
        T/NuQwW9zXKLKmiMtepCYEsxI0KKhxTxwyJeE7PTejRzQosTBSSiapdDZX5eNbMU4ACAjM3RpIM/aZHlSx06
        """)

    /// CN and SAN dNSName attest.android.com.
    static let safetyNetAttestHost = bytes(
        """
        MIIBXjCCAQOgAwIBAgIUdVAh33CR5Pp5gihmp1jl5nYzTukwCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHTEbMBkGA1UEAwwSYXR0ZXN0LmFuZHJvaWQuY29tMFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAEZE/zbkMFvc1yiypojLXqQmBLMSNCiocU8cMiXhOz03o0c0KLEwUkomqXQ2V+XjWzFOAAgIzN0aSD
        P2mR5UsdOqMhMB8wHQYDVR0RBBYwFIISYXR0ZXN0LmFuZHJvaWQuY29tMAoGCCqGSM49BAMCA0kAMEYCIQDg7nOdw/B+CZV88IvS
        BAogOrFNNzQEh6PgcPesWQtoaAIhAMg8yNAoJ2JMOQWvmEV/5eDma3fCjVDhVIRhbnPKCw/T
        """)

    /// CN and SAN dNSName attest.example.com.
    static let safetyNetOtherHost = bytes(
        """
        MIIBXTCCAQOgAwIBAgIUeGeZmjrZXPwCGPYqdwq89y4dbYowCgYIKoZIzj0EAwIwGzEZMBcGA1UEAwwQcGFzc2tleWQgdGVzdCBD
        QTAgFw0yMDAxMDEwMDAwMDBaGA8yMDUwMDEwMTAwMDAwMFowHTEbMBkGA1UEAwwSYXR0ZXN0LmV4YW1wbGUuY29tMFkwEwYHKoZI
        zj0CAQYIKoZIzj0DAQcDQgAEZE/zbkMFvc1yiypojLXqQmBLMSNCiocU8cMiXhOz03o0c0KLEwUkomqXQ2V+XjWzFOAAgIzN0aSD
        P2mR5UsdOqMhMB8wHQYDVR0RBBYwFIISYXR0ZXN0LmV4YW1wbGUuY29tMAoGCCqGSM49BAMCA0gAMEUCIQCjBaHEFNXhtPXYl6mL
        lCPTV1O1TEbh9jgO5R7bn5InMgIgJ+pWnKtqaDUxSsWm4RJXyZR0EQRYweSdpIkRGeD1EaA=
        """)

    private static func bytes(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data())
    }
}
