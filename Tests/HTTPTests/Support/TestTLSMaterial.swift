/// A self-signed P-256 certificate and key for 127.0.0.1 / localhost, for the TLS start-up test only.
enum TestTLSMaterial {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBmzCCAUGgAwIBAgIUQGVmQQemlIc9FRzUxjIve48hkI4wCgYIKoZIzj0EAwIw
        FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyOTE3Mzk0OVoYDzIxMjYxMTA1
        MTczOTQ5WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
        PQMBBwNCAAQXt42EKm5jxPuZM//ao/Te761FKHSG4KwQQrWPkGCfOPQhIMLGWhM0
        pkKQfCKgYdFVLPjAm5k8EnLZySS4L62Zo28wbTAdBgNVHQ4EFgQUYIlchH4ILuKE
        WKNc8LakYpUXOxwwHwYDVR0jBBgwFoAUYIlchH4ILuKEWKNc8LakYpUXOxwwDwYD
        VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
        zj0EAwIDSAAwRQIgN9omzhrd/p2LrcisdwF5AQk+WY/EISFZkd6oFQJNhw0CIQCB
        YZxeMeOB4RCt2Shoe6Gk8Arsy3LB4qPd/I+u/DQspw==
        -----END CERTIFICATE-----
        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgOIaUlgLN1MudNb7Z
        6YTQni8YVHYj/T3H1+XLQSmiR2uhRANCAAQXt42EKm5jxPuZM//ao/Te761FKHSG
        4KwQQrWPkGCfOPQhIMLGWhM0pkKQfCKgYdFVLPjAm5k8EnLZySS4L62Z
        -----END PRIVATE KEY-----
        """
}
